// The "waiting for a human" recipes (examples/README.md "Waiting for a human: recipes", issue #39 item 3) run
// through their frameworks against the real gateway over HTTP with scripted models (no vendor network). The refunds
// are paid by the real execution job against the sandbox provider; decisions reach the recipes that resume a saved
// run through the channel's real decision webhook (delivered by the job queue, verified with standardwebhooks).
// Each test checks what the customer was told while a person decided (the exact amount and recipient the reviewer
// saw), that nothing resumed before the decision (nor on a forged webhook), and the executed or rejected outcome.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { promisify } from "node:util";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import { OpenAIProvider } from "@openai/agents";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxControl } from "@/provider-sandbox/control-client";
import { setDecisionWebhook } from "@/lib/server/admin/set-decision-webhook";
import { db } from "@/lib/server/db/client";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { rejectProposal } from "@/lib/server/proposals/reject-proposal";
import { stopProposalChanges } from "@/lib/server/realtime/proposal-changes";
import { langGraphApprovalAgent, type Turn as GraphTurn } from "../../examples/langgraph/agent";
import { ScriptedChatModel } from "../../examples/langgraph/scripted-chat-model";
import { runMcpTasksAgent } from "../../examples/mcp-tasks/agent";
import { runVercelApprovalAgent } from "../../examples/vercel-ai-approval/agent";
import { scriptedModel } from "../../examples/vercel-ai/scripted-model";
import { fileRunStore, openAIApprovalAgent, type Turn } from "../../examples/openai-agents-approval/agent";
import { startDecisionReceiver, type DecisionReceiver } from "../../examples/shared/decision-webhooks";
import type { GatewayConfig } from "../../examples/shared/gateway";
import { recipeScript } from "../../examples/shared/recipes";
import { startScriptedVendor } from "../../examples/shared/scripted-vendor";
import { actorFor, staffOf } from "../support/actors";
import { startGatewayServer } from "../support/gateway-http-server";
import { runJobsOnce } from "../support/run-jobs-once";
import { startSandboxProvider, type SandboxProvider } from "../support/sandbox-provider";
import { ES, ana, freshTrace, tokenFor, webKey } from "./gateway-support";
import { sandboxCardOrder } from "./proposal-support";

let gateway: Awaited<ReturnType<typeof startGatewayServer>>;
let sandbox: SandboxProvider;
let control: SandboxControl;
let channelId: string;
let tmp: string;
beforeAll(async () => {
  gateway = await startGatewayServer();
  sandbox = await startSandboxProvider();
  control = sandbox.control;
  channelId = (await db().channel.findFirstOrThrow({ where: { slug: "web_support", tenant: { slug: ES } } })).id;
  tmp = await mkdtemp(join(tmpdir(), "recipes-"));
});
afterAll(async () => {
  await gateway?.close();
  await sandbox?.stop();
  await stopProposalChanges();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const reviewer = () => actorFor(staffOf(ES, "reviewer").email);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function gatewayConfig(): Promise<GatewayConfig> {
  return {
    baseUrl: gateway.url,
    agentKey: webKey(ES),
    endUserToken: await tokenFor(ES, ana),
    traceId: freshTrace(),
    model: "scripted",
    promptVersion: "recipes-test",
  };
}

/** Waits until `ready()` gives a value (the event itself is awaited by the recipe; this only bounds the test). */
async function until<T>(ready: () => T | undefined | null | false, what: string, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = ready();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** The channel's decision webhook, pointed at `receiver` with a fresh secret; returns the secret. */
async function pointWebhookAt(receiver: { url: string }): Promise<string> {
  const set = await setDecisionWebhook(await actorFor(staffOf(ES, "admin").email), channelId, {
    url: receiver.url,
    rotateSecret: true,
    overlapMinutes: 0,
  });
  return set.secret!;
}

/** A webhook anyone could send: well-formed, for the right proposal, signed with a secret that is not the channel's. */
async function forgeApproval(receiver: DecisionReceiver, proposalId: string): Promise<number> {
  const body = JSON.stringify({
    type: "proposal.approved",
    timestamp: new Date().toISOString(),
    data: { proposal_id: proposalId, status: "approved", kind: "refund" },
  });
  const id = `msg_forged_${Date.now()}`;
  const signature = new Webhook(`whsec_${Buffer.from("not the channel's secret!").toString("base64")}`).sign(
    id,
    new Date(),
    body,
  );
  const res = await fetch(receiver.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
      "webhook-signature": signature,
    },
    body,
  });
  return res.status;
}

const refundOf = (proposalId: string) => db().proposal.findUniqueOrThrow({ where: { id: proposalId } });

describe("examples/mcp-tasks (MCP client with tasks)", () => {
  it("prepares the refund as a task, tells the customer it awaits a person, and reads the executed refund from tasks/result with one tools/call", async () => {
    const { number } = await sandboxCardOrder(control, 4_100, "RCPM");
    const vendor = await startScriptedVendor(recipeScript(number));
    const methods: string[] = [];
    const told: { text: string; at: number }[] = [];
    let approvedAt = 0;
    try {
      const recording: typeof fetch = async (url, init) => {
        if (typeof init?.body === "string") {
          const body = JSON.parse(init.body) as { method?: string; params?: { name?: string } };
          if (body.method) methods.push(body.params?.name ? `${body.method}:${body.params.name}` : body.method);
        }
        return fetch(url, init);
      };
      const reviewerDecides = (async () => {
        const p = await until(
          () => told.length > 0 && methods.includes("tools/call:prepare_refund"),
          "the customer to be told",
        ).then(() => db().proposal.findFirstOrThrow({ where: { order: { number }, status: "pending_approval" } }));
        approvedAt = Date.now();
        await approveProposal(await reviewer(), { proposalId: p.id, hash: p.hash });
        await runJobsOnce(); // the execution job pays the refund at the sandbox provider
      })();
      const [run] = await Promise.all([
        runMcpTasksAgent({
          anthropic: new Anthropic({ apiKey: "test-key", baseURL: vendor.url, maxRetries: 0 }),
          gateway: await gatewayConfig(),
          model: "claude-scripted",
          userMessage: `My order ${number} arrived broken, I want a refund.`,
          onCustomerMessage: (text) => told.push({ text, at: Date.now() }),
          fetch: recording,
        }),
        reviewerDecides,
      ]);
      // The customer was told it awaits a person before anyone decided; then the final answer.
      expect(told[0]!.text).toContain("Awaiting a person's decision.");
      expect(told[0]!.at).toBeLessThan(approvedAt);
      expect(run.told.at(-1)).toBe("Your refund was approved and has been paid back to your card.");
      // The outcome came from the task: the executed refund, with what the reviewer approved.
      const p = await db().proposal.findFirstOrThrow({ where: { order: { number } } });
      expect(p.status).toBe("succeeded");
      expect(run.outcome).toMatchObject({ code: "ok", result: { proposal_id: p.id, status: "succeeded" } });
      expect(run.reviewed).toMatchObject({
        proposal_id: p.id,
        order_id: number,
        amount: { minor: 4_100, currency: "EUR" },
        recipient: { display: p.recipientDisplay },
      });
      expect(run.calls).toEqual([
        { name: "lookup_order", code: "ok", asTask: false },
        { name: "prepare_refund", code: "ok", asTask: true },
      ]);
      // Exactly one tools/call of prepare_refund; the rest is tasks/get polling and one tasks/result.
      expect(methods.filter((m) => m.startsWith("tools/call"))).toEqual([
        "tools/call:lookup_order",
        "tools/call:prepare_refund",
      ]);
      expect(methods.filter((m) => m === "tasks/result")).toHaveLength(1);
      expect(methods).toContain("tasks/get");
      // The model read the executed outcome as prepare_refund's tool_result.
      const last = JSON.stringify(vendor.requests.at(-1)!.body);
      expect(last).toContain("succeeded");
      expect(vendor.requests).toHaveLength(3);
    } finally {
      await vendor.close();
    }
  }, 40_000);
});

describe("examples/openai-agents-approval (@openai/agents needsApproval + RunState, resumed by the decision webhook)", () => {
  let receiver: DecisionReceiver;
  let secret = "";
  /** The recipe of the running test: the one the verified webhooks are handed to. */
  let recipe: Awaited<ReturnType<typeof openAIApprovalAgent>> | null = null;
  const resumed: Turn[] = [];
  const store = () => fileRunStore(join(tmp, "openai-runs"));

  beforeAll(async () => {
    receiver = await startDecisionReceiver({
      secret: () => secret,
      handle: async (event) => {
        const turn = await recipe?.decide(event);
        if (turn) resumed.push(turn);
      },
    });
    secret = await pointWebhookAt(receiver);
  });
  afterAll(async () => {
    await receiver?.close();
  });

  /** The recipe as a process would build it: the scripted model, the gateway, the run store on disk. */
  async function makeRecipe(vendor: { url: string }, gateway: GatewayConfig) {
    return openAIApprovalAgent({
      provider: new OpenAIProvider({ apiKey: "test-key", baseURL: `${vendor.url}/v1`, useResponses: true }),
      gateway,
      model: "gpt-scripted",
      store: store(),
    });
  }

  async function startRecipe(number: string) {
    const vendor = await startScriptedVendor(recipeScript(number));
    const gateway = await gatewayConfig();
    recipe = await makeRecipe(vendor, gateway);
    resumed.length = 0;
    const first = await recipe.start(`My order ${number} arrived broken, I want a refund.`);
    return { vendor, gateway, first };
  }

  it("pauses on prepare_refund, saves the run to disk, ignores a forged webhook; a fresh agent resumes it on the verified approval to the paid refund", async () => {
    const { number } = await sandboxCardOrder(control, 3_300, "RCPO");
    const { vendor, gateway: cfg, first } = await startRecipe(number);
    try {
      // Paused: the gateway prepared the proposal; the customer was told exactly what the reviewer sees.
      expect(first.status).toBe("awaiting_decision");
      const p = await db().proposal.findFirstOrThrow({ where: { order: { number } } });
      expect(p.status).toBe("pending_approval");
      expect(first.reviewed).toMatchObject({
        proposal_id: p.id,
        amount: { minor: 3_300, currency: "EUR" },
        recipient: { display: p.recipientDisplay, holder: "Ana García" },
      });
      expect(first.told).toEqual([expect.stringContaining(`33.00 EUR to ${p.recipientDisplay} (Ana García)`)]);
      expect(await store().has(p.id)).toBe(true);
      expect(vendor.requests).toHaveLength(2); // lookup_order, then the call that paused

      // Nothing resumes before the decision: the job queue runs, no decision webhook is sent, the run stays saved.
      await runJobsOnce();
      // A forged approval (a signature with another secret) is refused and resumes nothing.
      expect(await forgeApproval(receiver, p.id)).toBe(401);
      expect(receiver.refused()).toBe(1);
      await sleep(300);
      expect(resumed).toHaveLength(0);
      expect(vendor.requests).toHaveLength(2);
      expect(await store().has(p.id)).toBe(true);
      expect((await refundOf(p.id)).status).toBe("pending_approval");

      // A restarted process: a new agent with nothing in memory resumes from the saved run state on disk.
      recipe = await makeRecipe(vendor, cfg);
      // The reviewer approves; the queue pays the refund and delivers proposal.approved: the run resumes once.
      await approveProposal(await reviewer(), { proposalId: p.id, hash: p.hash });
      await runJobsOnce();
      const [turn] = await until(() => (resumed.length ? resumed : null), "the resumed run");
      expect(turn!.status).toBe("done");
      expect(turn!.outcome).toMatchObject({ code: "ok", result: { proposal_id: p.id, status: "succeeded" } });
      expect(turn!.reviewed).toMatchObject({ proposal_id: p.id, amount: { minor: 3_300 } });
      expect(turn!.text).toBe("Your refund was approved and has been paid back to your card.");
      expect((await refundOf(p.id)).status).toBe("succeeded");
      expect(await store().has(p.id)).toBe(false);
      expect(receiver.verified.map((e) => e.type)).toContain("proposal.approved");
      // The model read the executed outcome as prepare_refund's output; it called no tool to get it.
      expect(vendor.requests).toHaveLength(3);
      const outputs = (vendor.requests[2]!.body as { input: { type?: string; output?: string }[] }).input.filter(
        (i) => i.type === "function_call_output",
      );
      expect(JSON.parse(outputs.at(-1)!.output!)).toMatchObject({ code: "ok", result: { status: "succeeded" } });
      // The gateway's trace: prepared once; the outcome read with get_action_status (no second prepare).
      const events = await db().auditEvent.findMany({
        where: { traceId: p.traceId, action: { startsWith: "tool:" } },
        orderBy: { pos: "asc" },
      });
      expect(events.filter((e) => e.action === "tool:prepare_refund")).toHaveLength(1);
      // A redelivery of the same decision finds no saved run: nothing resumes twice.
      await runJobsOnce();
      expect(resumed).toHaveLength(1);
    } finally {
      await vendor.close();
    }
  }, 45_000);

  it("the reviewer rejects: the run resumes with the rejection and the agent tells the customer the reason; nothing is paid", async () => {
    const { number } = await sandboxCardOrder(control, 2_700, "RCPR");
    const { vendor, first } = await startRecipe(number);
    try {
      expect(first.status).toBe("awaiting_decision");
      const p = await db().proposal.findFirstOrThrow({ where: { order: { number } } });
      await rejectProposal(await reviewer(), {
        proposalId: p.id,
        hash: p.hash,
        customerMessage: "The item must be returned first",
      });
      await runJobsOnce();
      const [turn] = await until(() => (resumed.length ? resumed : null), "the resumed run");
      expect(turn!.outcome).toMatchObject({ code: "rejected" });
      expect(turn!.text).toBe("A reviewer could not approve your refund. Reason: The item must be returned first.");
      expect((await refundOf(p.id)).status).toBe("rejected");
      expect(await db().execution.count({ where: { proposalId: p.id } })).toBe(0);
    } finally {
      await vendor.close();
    }
  }, 30_000);
});

describe("examples/vercel-ai-approval (ai tool approval answered from the gateway's decision)", () => {
  it("answers the tool-approval-request only after the reviewer approved, then the tool reads the paid refund", async () => {
    const { number } = await sandboxCardOrder(control, 5_200, "RCPV");
    const { model, prompts } = scriptedModel(recipeScript(number));
    const told: string[] = [];
    let promptsWhenApproved = -1;
    const reviewerDecides = (async () => {
      await until(() => told.length > 0, "the customer to be told");
      const p = await db().proposal.findFirstOrThrow({ where: { order: { number }, status: "pending_approval" } });
      // While the harness waits for the person, the model is not called again and nothing was answered.
      await sleep(500);
      promptsWhenApproved = prompts.length;
      await approveProposal(await reviewer(), { proposalId: p.id, hash: p.hash });
      await runJobsOnce(); // pays the refund
    })();
    const [run] = await Promise.all([
      runVercelApprovalAgent({
        model,
        gateway: await gatewayConfig(),
        userMessage: `My order ${number} arrived broken, I want a refund.`,
        onCustomerMessage: (t) => told.push(t),
      }),
      reviewerDecides,
    ]);
    const p = await db().proposal.findFirstOrThrow({ where: { order: { number } } });
    expect(promptsWhenApproved).toBe(2);
    expect(run.told[0]).toContain(`52.00 EUR to ${p.recipientDisplay} (Ana García)`);
    expect(run.reviewed).toMatchObject({ proposal_id: p.id, amount: { minor: 5_200, currency: "EUR" } });
    expect(run.decisions).toEqual([{ approved: true, code: expect.stringMatching(/^(ok|result_pending)$/) }]);
    expect(run.outcome).toMatchObject({ code: "ok", result: { proposal_id: p.id, status: "succeeded" } });
    expect(run.text).toBe("Your refund was approved and has been paid back to your card.");
    expect(p.status).toBe("succeeded");
    // The third prompt carries the whole conversation and prepare_refund's result: the executed refund.
    expect(prompts).toHaveLength(3);
    const third = JSON.stringify(prompts[2]);
    // (The approval response itself is consumed by the SDK, which ran the tool; the model sees the tool's result.)
    expect((prompts[2] as { role: string }[]).map((m) => m.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
      "tool",
    ]);
    expect(third).toMatch(/succeeded/);
    // The decision was waited for with wait_seconds (no tight poll), and prepare_refund went to the gateway once.
    const events = await db().auditEvent.findMany({
      where: { traceId: p.traceId, action: { startsWith: "tool:" } },
      orderBy: { pos: "asc" },
      select: { action: true, data: true },
    });
    expect(events.filter((e) => e.action === "tool:prepare_refund")).toHaveLength(1);
    const waits = events
      .filter((e) => e.action === "tool:get_action_status")
      .map((e) => (e.data as { arguments?: { wait_seconds?: number } }).arguments?.wait_seconds);
    expect(waits[0]).toBe(25);
  }, 40_000);

  it("a rejection denies the request: the tool never runs and the model tells the customer the reviewer's reason", async () => {
    const { number } = await sandboxCardOrder(control, 1_900, "RCPV");
    const { model, prompts } = scriptedModel(recipeScript(number));
    const told: string[] = [];
    const reviewerDecides = (async () => {
      await until(() => told.length > 0, "the customer to be told");
      const p = await db().proposal.findFirstOrThrow({ where: { order: { number }, status: "pending_approval" } });
      await rejectProposal(await reviewer(), { proposalId: p.id, hash: p.hash, customerMessage: "Outside the window" });
    })();
    const [run] = await Promise.all([
      runVercelApprovalAgent({
        model,
        gateway: await gatewayConfig(),
        userMessage: `Refund my order ${number}, please.`,
        onCustomerMessage: (t) => told.push(t),
      }),
      reviewerDecides,
    ]);
    expect(run.decisions).toEqual([{ approved: false, code: "rejected" }]);
    expect(run.text).toBe("A reviewer could not approve your refund. Reason: Outside the window.");
    // The model read the denial (execution-denied with the gateway's rejection as the reason).
    expect(JSON.stringify(prompts.at(-1))).toContain("execution-denied");
    const p = await db().proposal.findFirstOrThrow({ where: { order: { number } } });
    expect(p.status).toBe("rejected");
    expect(await db().execution.count({ where: { proposalId: p.id } })).toBe(0);
  }, 40_000);
});

describe("examples/langgraph (interrupt on approval_required, MemorySaver, resumed with Command by the decision webhook)", () => {
  let receiver: DecisionReceiver;
  let secret = "";
  let recipe: Awaited<ReturnType<typeof langGraphApprovalAgent>> | null = null;
  const resumed: GraphTurn[] = [];

  beforeAll(async () => {
    receiver = await startDecisionReceiver({
      secret: () => secret,
      handle: async (event) => {
        const turn = await recipe?.decide(event);
        if (turn) resumed.push(turn);
      },
    });
    secret = await pointWebhookAt(receiver);
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it("interrupts after the gateway prepared, stays paused through the queue and a forged webhook, resumes on the verified approval to the paid refund", async () => {
    const { number } = await sandboxCardOrder(control, 6_100, "RCPL");
    const model = new ScriptedChatModel(recipeScript(number));
    recipe = await langGraphApprovalAgent({ model, gateway: await gatewayConfig() });
    const first = await recipe.start("thread-1", `My order ${number} arrived broken, I want a refund.`);
    expect(first.status).toBe("awaiting_decision");
    const p = await db().proposal.findFirstOrThrow({ where: { order: { number } } });
    expect(first.reviewed).toMatchObject({ proposal_id: p.id, amount: { minor: 6_100, currency: "EUR" } });
    expect(first.told).toEqual([expect.stringContaining(`61.00 EUR to ${p.recipientDisplay} (Ana García)`)]);
    const paused = await recipe.graph.getState({ configurable: { thread_id: "thread-1" } });
    expect(paused.next).toEqual(["decide"]);
    expect(model.prompts).toHaveLength(2);

    await runJobsOnce();
    expect(await forgeApproval(receiver, p.id)).toBe(401);
    expect(receiver.refused()).toBe(1);
    await sleep(300);
    expect(resumed).toHaveLength(0);
    expect(recipe.isWaiting(p.id)).toBe(true);
    expect(model.prompts).toHaveLength(2);
    expect((await refundOf(p.id)).status).toBe("pending_approval");

    await approveProposal(await reviewer(), { proposalId: p.id, hash: p.hash });
    await runJobsOnce();
    const [turn] = await until(() => (resumed.length ? resumed : null), "the resumed graph");
    expect(turn!.status).toBe("done");
    expect(turn!.outcome).toMatchObject({ code: "ok", result: { proposal_id: p.id, status: "succeeded" } });
    expect(turn!.text).toBe("Your refund was approved and has been paid back to your card.");
    expect(turn!.told).toHaveLength(2);
    expect((await refundOf(p.id)).status).toBe("succeeded");
    expect(model.prompts).toHaveLength(3);
    // Resuming re-ran only the interrupted node: prepare_refund reached the gateway once.
    const events = await db().auditEvent.findMany({
      where: { traceId: p.traceId, action: "tool:prepare_refund" },
    });
    expect(events).toHaveLength(1);
    await runJobsOnce();
    expect(resumed).toHaveLength(1);
  }, 40_000);
});

describe("examples/{mcp-tasks,vercel-ai-approval}/main.ts --scripted (the README path)", () => {
  /** The order's proposal once the agent prepared it. */
  async function preparedFor(number: string) {
    const end = Date.now() + 40_000;
    for (;;) {
      const p = await db().proposal.findFirst({ where: { order: { number }, status: "pending_approval" } });
      if (p) return p;
      if (Date.now() > end) throw new Error(`no proposal for ${number}`);
      await sleep(100);
    }
  }

  it("each runs against the gateway over HTTP, tells the customer it awaits review, and prints the paid refund once approved", async () => {
    const runs = await Promise.all(
      ["mcp-tasks", "vercel-ai-approval"].map(async (name) => {
        const { number } = await sandboxCardOrder(control, 2_300, "RCPX");
        const cfg = await gatewayConfig();
        const env = {
          NODE_ENV: "production" as const,
          PATH: process.env.PATH,
          GATEWAY_URL: cfg.baseUrl,
          AGENT_KEY: cfg.agentKey,
          END_USER_TOKEN: cfg.endUserToken,
        };
        const child = promisify(execFile)(
          process.execPath,
          ["--import", "tsx", `examples/${name}/main.ts`, "--scripted", `My order ${number} arrived broken`],
          { env, timeout: 45_000 },
        );
        const p = await preparedFor(number);
        await sleep(500); // the agent is waiting now
        await approveProposal(await reviewer(), { proposalId: p.id, hash: p.hash });
        await runJobsOnce();
        return { name, p, stdout: (await child).stdout };
      }),
    );
    for (const { name, p, stdout } of runs) {
      expect(stdout, name).toMatch(/customer sees: .*(Awaiting a person's decision|23\.00 EUR to .* awaits)/);
      expect(stdout, name).toMatch(/succeeded/);
      expect((await refundOf(p.id)).status, name).toBe("succeeded");
    }
    expect(runs[0]!.stdout).toContain("reviewer saw and decided: ok (succeeded): 23.00 EUR to ");
    expect(runs[1]!.stdout).toContain("customer sees: Your refund was approved and has been paid back to your card.");
  }, 55_000);
});
