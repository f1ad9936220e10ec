// The example agents (examples/*) run through their official libraries against the gateway over real HTTP,
// with a scripted model (a local fake vendor endpoint, or the AI SDK's MockLanguageModel): no vendor network.
// Every scripted conversation invents a tool name and an amount, prepares the refund, and then waits for the
// reviewer with one get_refund_status call with wait_seconds while a reviewer approves (no polling).
// With ANTHROPIC_API_KEY / OPENAI_API_KEY set, the same examples also run once against the real vendor.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import Anthropic from "@anthropic-ai/sdk";
import { OpenAIProvider } from "@openai/agents";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { stopProposalChanges } from "@/lib/server/realtime/proposal-changes";
import { runAnthropicAgent } from "../../examples/anthropic-messages/agent";
import { runOpenAIAgent } from "../../examples/openai-agents/agent";
import { runVercelAgent } from "../../examples/vercel-ai/agent";
import { runMcpAgent } from "../../examples/mcp-client/agent";
import { BudgetTracker, CLEARED, NUDGE, describesToolCall } from "../../examples/shared/harness";
import { defaultModels } from "../../examples/shared/cli";
import { gatewayHeaders, type GatewayConfig } from "../../examples/shared/gateway";
import { WAIT_SECONDS, refundScript, startScriptedVendor } from "../../examples/shared/scripted-vendor";
import { scriptedModel } from "../../examples/vercel-ai/scripted-model";
import { actorFor, staffOf } from "../support/actors";
import { startGatewayServer } from "../support/gateway-http-server";
import { ES, ana, freshTrace, tokenFor, webKey } from "./gateway-support";
import { createPaidOrder } from "../../scripts/lib/fixtures";

const execFileAsync = promisify(execFile);
let gateway: Awaited<ReturnType<typeof startGatewayServer>>;
beforeAll(async () => {
  gateway = await startGatewayServer();
});
afterAll(async () => {
  await gateway?.close();
  await stopProposalChanges();
});

async function gatewayConfig(): Promise<GatewayConfig> {
  return {
    baseUrl: gateway.url,
    agentKey: webKey(ES),
    endUserToken: await tokenFor(ES, ana),
    traceId: freshTrace(),
    model: "scripted",
    promptVersion: "examples-test",
  };
}

/** A fresh order of Ana's (ES), so each example prepares its own proposal. */
async function freshOrder(): Promise<string> {
  const t = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
  return (
    await createPaidOrder(db(), t, { customerId: ana, amountMinor: 3_300, prefix: "EX", holderName: "Ana García" })
  ).number;
}

/**
 * The reviewer of the scripted conversation: as soon as the agent has prepared the refund, approves it through
 * the real use case (the agent is then waiting in get_refund_status, or about to). Resolves with the time.
 */
async function approveWhenPrepared(order: string): Promise<number> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const p = await db().proposal.findFirst({ where: { order: { number: order }, status: "pending_approval" } });
    if (p) {
      await new Promise((r) => setTimeout(r, 300)); // give the agent time to start its wait
      await approveProposal(await actorFor(staffOf(ES, "reviewer").email), { proposalId: p.id, hash: p.hash });
      return Date.now();
    }
    if (Date.now() > deadline) throw new Error("the agent never prepared the refund");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The calls every example makes in the refund script, the invented tool first. */
const SCRIPTED_CALLS = [
  { name: "search_orders", code: "unknown_tool" },
  { name: "lookup_order", code: "ok" },
  { name: "prepare_refund", code: "invalid_arguments" },
  { name: "prepare_refund", code: "approval_required" },
  { name: "get_refund_status", code: "result_pending" },
];

/**
 * What every example must show for the refund script: the calls, the proposal in the database (approved during
 * the wait), the audit trail of the agent's calls (`throughGateway`: whether the invented name reached the
 * gateway, or the SDK answered it), and exactly one wait with wait_seconds.
 */
async function expectRefundDecided(
  order: string,
  traceId: string,
  run: { calls: { name: string; code: string }[]; text: string },
  throughGateway = true,
) {
  expect(run.calls).toEqual(SCRIPTED_CALLS);
  expect(run.text).toContain("approved");
  const proposals = await db().proposal.findMany({ where: { order: { number: order } } });
  expect(proposals).toHaveLength(1);
  expect(proposals[0]).toMatchObject({ status: "approved", amountMinor: 3_300 });
  const events = await db().auditEvent.findMany({
    where: { traceId, action: { startsWith: "tool:" } },
    orderBy: { pos: "asc" },
    select: { action: true, outcome: true, data: true },
  });
  expect(events.map((e) => `${e.action}:${e.outcome}`)).toEqual([
    ...(throughGateway ? ["tool:search_orders:unknown_tool"] : []),
    "tool:lookup_order:ok",
    "tool:prepare_refund:invalid_arguments",
    "tool:prepare_refund:approval_required",
    "tool:get_refund_status:result_pending",
  ]);
}

/** The one get_refund_status call the model made, as the gateway recorded its arguments. */
async function waitArguments(traceId: string): Promise<unknown[]> {
  const events = await db().auditEvent.findMany({
    where: { traceId, action: "tool:get_refund_status" },
    select: { data: true },
  });
  return events.map((e) => (e.data as { arguments?: { wait_seconds?: unknown } }).arguments?.wait_seconds);
}

describe("examples/anthropic-messages (@anthropic-ai/sdk)", () => {
  it("nudges a narrated call once, returns errors to the model as tool results, clears old results, prepares the refund and waits for the decision", async () => {
    const order = await freshOrder();
    const vendor = await startScriptedVendor(refundScript(order));
    try {
      const cfg = await gatewayConfig();
      const client = new Anthropic({ apiKey: "test-key", baseURL: vendor.url, maxRetries: 0 });
      const [run] = await Promise.all([
        runAnthropicAgent({
          client,
          gateway: cfg,
          model: "claude-scripted",
          userMessage: `My order ${order} arrived broken, I want a refund.`,
          budget: { maxSteps: 8, maxToolErrors: 3, keepToolResults: 2 },
        }),
        approveWhenPrepared(order),
      ]);
      expect(run.stoppedBecause).toBeNull();
      expect(run.nudged).toBe(true);
      await expectRefundDecided(order, cfg.traceId, run);
      expect(await waitArguments(cfg.traceId)).toEqual([WAIT_SECONDS]);

      type Msg = { role: string; content: string | { type: string; content?: string; is_error?: boolean }[] };
      const sent = vendor.requests.map(
        (r) => r.body as { messages: Msg[]; tools: { name: string; strict?: boolean }[]; system?: string },
      );
      expect(sent).toHaveLength(7);
      // The served tools are Anthropic's strict shape straight from the gateway; the instructions say to wait.
      expect(sent[0]!.tools.map((t) => t.name)).toContain("prepare_refund");
      expect(sent[0]!.tools.every((t) => t.strict === true)).toBe(true);
      expect(sent[0]!.system).toContain("wait_seconds");
      // Turn 2 carries the one nudge after the narrated call.
      expect(sent[1]!.messages.at(-1)).toEqual({ role: "user", content: NUDGE });
      // Turn 3: the unknown_tool error went back to the model as an is_error tool_result.
      const third = sent[2]!.messages.at(-1)!.content as { type: string; content?: string; is_error?: boolean }[];
      expect(third[0]).toMatchObject({ type: "tool_result", is_error: true });
      expect(JSON.parse(third[0]!.content!).code).toBe("unknown_tool");
      // Last turn: only the newest two tool results are verbatim; the older ones are cleared.
      const results = sent[6]!.messages.flatMap((m) =>
        typeof m.content === "string" ? [] : m.content.filter((b) => b.type === "tool_result"),
      );
      expect(results.map((r) => r.content === CLEARED)).toEqual([true, true, true, false, false]);
    } finally {
      await vendor.close();
    }
  });

  it("stops at the step budget when the model keeps calling tools, and hands over", async () => {
    const order = await freshOrder();
    const vendor = await startScriptedVendor([{ calls: [{ name: "lookup_order", args: { order_id: order } }] }]);
    try {
      const client = new Anthropic({ apiKey: "test-key", baseURL: vendor.url, maxRetries: 0 });
      const run = await runAnthropicAgent({
        client,
        gateway: await gatewayConfig(),
        model: "claude-scripted",
        userMessage: "Check my order.",
        budget: { maxSteps: 4, maxToolErrors: 3, keepToolResults: 2 },
      });
      expect(run.stoppedBecause).toMatch(/step budget of 4/);
      expect(vendor.requests).toHaveLength(4);
      expect(run.calls).toHaveLength(4);
    } finally {
      await vendor.close();
    }
  });

  it.skipIf(!process.env.ANTHROPIC_API_KEY)(
    "runs against the real Anthropic API when ANTHROPIC_API_KEY is set",
    async () => {
      const order = await freshOrder();
      const run = await runAnthropicAgent({
        client: new Anthropic(),
        gateway: await gatewayConfig(),
        model: process.env.ANTHROPIC_MODEL ?? defaultModels.anthropic,
        userMessage: `My order ${order} arrived broken (damaged item). Please refund it.`,
      });
      expect(run.calls.some((c) => c.name === "prepare_refund" && c.code === "approval_required")).toBe(true);
    },
  );
});

describe("examples/openai-agents (@openai/agents)", () => {
  it("answers an invented tool name to the model (no ModelBehaviorError), nudges once, clears old results, prepares the refund and waits", async () => {
    const order = await freshOrder();
    const vendor = await startScriptedVendor(refundScript(order));
    try {
      const cfg = await gatewayConfig();
      const provider = new OpenAIProvider({ apiKey: "test-key", baseURL: `${vendor.url}/v1`, useResponses: true });
      const [run] = await Promise.all([
        runOpenAIAgent({
          provider,
          gateway: cfg,
          model: "gpt-scripted",
          userMessage: `My order ${order} arrived broken, I want a refund.`,
          budget: { maxSteps: 8, maxToolErrors: 3, keepToolResults: 1 },
        }),
        approveWhenPrepared(order),
      ]);
      expect(run.stoppedBecause).toBeNull();
      expect(run.nudged).toBe(true);
      // The invented name reached the gateway through the runner's toolErrorFormatter: audited like the others.
      await expectRefundDecided(order, cfg.traceId, run);
      expect(await waitArguments(cfg.traceId)).toEqual([WAIT_SECONDS]);

      type Item = {
        type?: string;
        role?: string;
        content?: unknown;
        output?: string;
        name?: string;
        strict?: boolean;
        call_id?: string;
      };
      const sent = vendor.requests.map((r) => r.body as { input: Item[]; tools: Item[] });
      expect(sent.every((b) => vendor.requests[0]!.path.endsWith("/responses") && Array.isArray(b.input))).toBe(true);
      expect(sent[0]!.tools.map((t) => t.name)).toContain("prepare_refund");
      expect(sent[0]!.tools.every((t) => t.strict === true)).toBe(true);
      expect(JSON.stringify(sent[1]!.input)).toContain(NUDGE);
      // Turn 3: the invented call and the gateway's unknown_tool answer, paired by call_id.
      const call = sent[2]!.input.find((i) => i.type === "function_call" && i.name === "search_orders");
      const answer = sent[2]!.input.find((i) => i.type === "function_call_output" && i.call_id === call?.call_id);
      expect(JSON.parse(answer!.output!).code).toBe("unknown_tool");
      // The invalid_arguments answer reached the model as the function_call_output.
      const outputs = sent[4]!.input.filter((i) => i.type === "function_call_output");
      expect(JSON.parse(outputs.at(-1)!.output!).code).toBe("invalid_arguments");
      // Last request: only the newest result is verbatim.
      const last = sent
        .at(-1)!
        .input.filter((i) => i.type === "function_call_output")
        .map((i) => i.output === CLEARED);
      expect(last).toEqual([true, true, true, true, false]);
    } finally {
      await vendor.close();
    }
  });

  it("stops at the step budget (maxTurns) and hands over", async () => {
    const order = await freshOrder();
    const vendor = await startScriptedVendor([{ calls: [{ name: "lookup_order", args: { order_id: order } }] }]);
    try {
      const provider = new OpenAIProvider({ apiKey: "test-key", baseURL: `${vendor.url}/v1`, useResponses: true });
      const run = await runOpenAIAgent({
        provider,
        gateway: await gatewayConfig(),
        model: "gpt-scripted",
        userMessage: "Check my order.",
        budget: { maxSteps: 3, maxToolErrors: 3, keepToolResults: 2 },
      });
      expect(run.stoppedBecause).toMatch(/step budget of 3/);
      expect(vendor.requests.length).toBeLessThanOrEqual(3);
    } finally {
      await vendor.close();
    }
  });

  it.skipIf(!process.env.OPENAI_API_KEY)("runs against the real OpenAI API when OPENAI_API_KEY is set", async () => {
    const order = await freshOrder();
    const run = await runOpenAIAgent({
      provider: new OpenAIProvider({ useResponses: true }),
      gateway: await gatewayConfig(),
      model: process.env.OPENAI_MODEL ?? defaultModels.openai,
      userMessage: `My order ${order} arrived broken (damaged item). Please refund it.`,
    });
    expect(run.calls.some((c) => c.name === "prepare_refund" && c.code === "approval_required")).toBe(true);
  });
});

describe("examples/vercel-ai (ai, MockLanguageModelV4)", () => {
  it("keeps strict, marks gateway errors as errors, answers an invented tool name, prepares the refund and waits (Chat Completions shape)", async () => {
    const order = await freshOrder();
    const { model, prompts } = scriptedModel(refundScript(order));
    const cfg = await gatewayConfig();
    const [run] = await Promise.all([
      runVercelAgent({
        model,
        gateway: cfg,
        userMessage: `My order ${order} arrived broken, I want a refund.`,
        budget: { maxSteps: 8, maxToolErrors: 3, keepToolResults: 1 },
      }),
      approveWhenPrepared(order),
    ]);
    expect(run.stoppedBecause).toBeNull();
    expect(run.nudged).toBe(true);
    // The SDK answers the invented name itself (NoSuchToolError as a tool error): the gateway never sees it.
    await expectRefundDecided(order, cfg.traceId, run, false);
    expect(await waitArguments(cfg.traceId)).toEqual([WAIT_SECONDS]);
    const audit = await db().auditEvent.findFirst({
      where: { traceId: cfg.traceId, action: "tool:prepare_refund", outcome: "approval_required" },
    });
    expect((audit?.data as { transport?: string }).transport).toBe("openai_chat");

    // strict: true as served reaches the model's tool definitions.
    const tools = model.doGenerateCalls[0]!.tools as { name: string; strict?: boolean }[];
    expect(tools.map((t) => t.name)).toContain("prepare_refund");
    expect(tools.every((t) => t.strict === true)).toBe(true);

    type Part = { type: string; toolName?: string; output?: { type: string; value: unknown } };
    type Msg = { role: string; content: string | Part[] };
    const seen = prompts as Msg[][];
    expect(JSON.stringify(seen[1])).toContain(NUDGE);
    const resultsOf = (p: Msg[]) =>
      p.flatMap((m) =>
        m.role === "tool" && Array.isArray(m.content) ? m.content.filter((x) => x.type === "tool-result") : [],
      );
    // The invented tool came back to the model as an error result naming the real tools.
    const invented = resultsOf(seen[2]!).find((r) => r.toolName === "search_orders")!;
    expect(invented.output!.type).toMatch(/^error-/);
    expect(JSON.stringify(invented.output!.value)).toContain("lookup_order");
    // Gateway errors are error results (not successful ones); successes stay text.
    const fourth = resultsOf(seen[4]!);
    expect(fourth.at(-1)!.output).toMatchObject({ type: "error-text" });
    expect(JSON.parse(String(fourth.at(-1)!.output!.value)).code).toBe("invalid_arguments");
    expect(resultsOf(seen[3]!).at(-1)!.output!.type).toBe("text");
    expect(resultsOf(seen.at(-1)!).map((r) => r.output!.value === CLEARED)).toEqual([true, true, true, true, false]);
  });

  it("stops at the step budget and hands over", async () => {
    const order = await freshOrder();
    const { model, prompts } = scriptedModel([{ calls: [{ name: "lookup_order", args: { order_id: order } }] }]);
    const run = await runVercelAgent({
      model,
      gateway: await gatewayConfig(),
      userMessage: "Check my order.",
      budget: { maxSteps: 3, maxToolErrors: 3, keepToolResults: 2 },
    });
    expect(run.stoppedBecause).toMatch(/step budget of 3/);
    expect(prompts).toHaveLength(3);
  });
});

describe("examples/mcp-client (@modelcontextprotocol/sdk + @anthropic-ai/sdk)", () => {
  it("the same conversation over MCP: unknown tool and invalid arguments come back as isError results, the refund is prepared and decided", async () => {
    const order = await freshOrder();
    const vendor = await startScriptedVendor(refundScript(order));
    try {
      const cfg = await gatewayConfig();
      const anthropic = new Anthropic({ apiKey: "test-key", baseURL: vendor.url, maxRetries: 0 });
      const [run] = await Promise.all([
        runMcpAgent({
          anthropic,
          gateway: cfg,
          model: "claude-scripted",
          userMessage: `My order ${order} arrived broken, I want a refund.`,
          budget: { maxSteps: 8, maxToolErrors: 3, keepToolResults: 2 },
        }),
        approveWhenPrepared(order),
      ]);
      expect(run.stoppedBecause).toBeNull();
      expect(run.nudged).toBe(true);
      await expectRefundDecided(order, cfg.traceId, run);
      expect(await waitArguments(cfg.traceId)).toEqual([WAIT_SECONDS]);
      const events = await db().auditEvent.findMany({
        where: { traceId: cfg.traceId, action: { startsWith: "tool:" } },
      });
      expect(events.every((e) => (e.data as { transport?: string }).transport === "mcp")).toBe(true);
      type Block = { type: string; is_error?: boolean; content?: string };
      const third = (vendor.requests[2]!.body as { messages: { content: Block[] }[] }).messages.at(-1)!.content;
      expect(third[0]).toMatchObject({ type: "tool_result", is_error: true });
      expect(JSON.parse(third[0]!.content!).code).toBe("unknown_tool");
    } finally {
      await vendor.close();
    }
  });
});

describe("examples/*/main.ts --scripted (the README path: no vendor key)", () => {
  it("each runnable example plays the scripted conversation against the gateway over HTTP and exits 0", async () => {
    const names = ["anthropic-messages", "openai-agents", "vercel-ai", "mcp-client"];
    const runs = await Promise.all(
      names.map(async (name) => {
        const order = await freshOrder();
        const cfg = await gatewayConfig();
        const env = {
          NODE_ENV: "production" as const,
          PATH: process.env.PATH,
          GATEWAY_URL: cfg.baseUrl,
          AGENT_KEY: cfg.agentKey,
          END_USER_TOKEN: cfg.endUserToken,
        };
        const [out] = await Promise.all([
          execFileAsync(
            process.execPath,
            ["--import", "tsx", `examples/${name}/main.ts`, "--scripted", `My order ${order} arrived broken`],
            {
              env,
              timeout: 50_000,
            },
          ),
          approveWhenPrepared(order),
        ]);
        return { name, order, stdout: out.stdout };
      }),
    );
    for (const { name, order, stdout } of runs) {
      const printed = JSON.parse(stdout.slice(0, stdout.lastIndexOf("}") + 1)) as {
        traceId: string;
        calls: { name: string; code: string }[];
      };
      expect(printed.calls, name).toEqual(SCRIPTED_CALLS);
      expect(stdout, name).toContain("approved");
      expect((await db().proposal.findFirstOrThrow({ where: { order: { number: order } } })).status, name).toBe(
        "approved",
      );
    }
  }, 60_000);
});

describe("OpenAI Chat Completions through the official openai package", () => {
  it("tool definitions, a tool_calls[i] item and the {role:'tool'} answer go round trip unchanged", async () => {
    const order = await freshOrder();
    const vendor = await startScriptedVendor([
      {
        calls: [
          { name: "lookup_order", args: { order_id: order } },
          { name: "prepare_refund", args: { order_id: order, reason: "damaged_item" } },
        ],
      },
      { text: "Your refund now awaits review." },
    ]);
    try {
      const cfg = await gatewayConfig();
      const headers = { ...gatewayHeaders(cfg), "content-type": "application/json" };
      const openai = new OpenAI({ apiKey: "test-key", baseURL: `${vendor.url}/v1`, maxRetries: 0 });
      const tools = (await (await fetch(`${cfg.baseUrl}/api/agent/tools?format=openai_chat`, { headers })).json())
        .tools as OpenAI.Chat.ChatCompletionTool[];
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
        { role: "user", content: `Refund my broken order ${order}.` },
      ];
      for (let step = 0; step < 4; step++) {
        const completion = await openai.chat.completions.create({ model: "gpt-scripted", messages, tools });
        const message = completion.choices[0]!.message;
        messages.push(message);
        if (!message.tool_calls?.length) break;
        for (const call of message.tool_calls) {
          // The tool call item as the SDK returned it; the answer is a ready tool message.
          const answer = await (
            await fetch(`${cfg.baseUrl}/api/agent/tool-calls`, { method: "POST", headers, body: JSON.stringify(call) })
          ).json();
          messages.push(answer as OpenAI.Chat.ChatCompletionToolMessageParam);
        }
      }
      const sent = vendor.requests.map(
        (r) =>
          r.body as {
            tools: { type: string; function: { name: string; strict: boolean } }[];
            messages: { role: string; tool_call_id?: string; content?: string }[];
          },
      );
      expect(vendor.requests.every((r) => r.path === "/v1/chat/completions")).toBe(true);
      expect(sent[0]!.tools.map((t) => t.function.name)).toContain("prepare_refund");
      expect(sent[0]!.tools.every((t) => t.type === "function" && t.function.strict === true)).toBe(true);
      const toolMessages = sent[1]!.messages.filter((m) => m.role === "tool");
      expect(toolMessages.map((m) => JSON.parse(m.content!).code)).toEqual(["ok", "approval_required"]);
      const assistantCalls = (
        sent[1]!.messages.find((m) => m.role === "assistant") as unknown as { tool_calls: { id: string }[] }
      ).tool_calls.map((c) => c.id);
      expect(toolMessages.map((m) => m.tool_call_id)).toEqual(assistantCalls);
      expect((await db().proposal.findMany({ where: { order: { number: order } } })).map((p) => p.status)).toEqual([
        "pending_approval",
      ]);
    } finally {
      await vendor.close();
    }
  });
});

describe("harness: catching a described call", () => {
  const names = ["lookup_order", "prepare_refund"];
  it("flags text that names a tool, announces a call, or writes one out", () => {
    for (const t of [
      "I'll call lookup_order with ORD-1001.",
      "Let me use the refund tool for that.",
      'Calling now: {"name": "prepare_refund", "arguments": {}}',
      "<tool_use>prepare_refund</tool_use>",
    ])
      expect(describesToolCall(t, names), t).toBe(true);
  });
  it("lets an ordinary answer through", () => {
    for (const t of [
      "Your refund awaits review by our team.",
      "Could you tell me the order number?",
      "I have prepared the refund; a reviewer will look at it.",
    ]) {
      expect(describesToolCall(t, names), t).toBe(false);
    }
  });
  it("nudges once per conversation", () => {
    const b = new BudgetTracker();
    expect(b.shouldNudge("I'll call lookup_order now", names)).toBe(true);
    expect(b.shouldNudge("I'll call lookup_order now", names)).toBe(false);
  });
});
