// The example agents (examples/*) run through their official libraries against the gateway over real HTTP,
// with a scripted model (a local fake vendor endpoint, or the AI SDK's MockLanguageModel): no vendor network.
// With ANTHROPIC_API_KEY / OPENAI_API_KEY set, the same examples also run once against the real vendor.
import Anthropic from "@anthropic-ai/sdk";
import { OpenAIProvider } from "@openai/agents";
import { MockLanguageModelV4 } from "ai/test";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { runAnthropicAgent } from "../../examples/anthropic-messages/agent";
import { runOpenAIAgent } from "../../examples/openai-agents/agent";
import { runVercelAgent } from "../../examples/vercel-ai/agent";
import { runMcpAgent } from "../../examples/mcp-client/agent";
import { BudgetTracker, CLEARED, NUDGE, describesToolCall } from "../../examples/shared/harness";
import { gatewayHeaders, type GatewayConfig } from "../../examples/shared/gateway";
import { startGatewayServer } from "../support/gateway-http-server";
import { refundScript, startScriptedVendor, type ScriptedTurn } from "../support/scripted-vendor";
import { ES, ana, freshTrace, tokenFor, webKey } from "./gateway-support";

let gateway: Awaited<ReturnType<typeof startGatewayServer>>;
beforeAll(async () => {
  gateway = await startGatewayServer();
});
afterAll(async () => {
  await gateway?.close();
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

let seq = 0;
/** A fresh order of Ana's (ES), so each example prepares its own proposal. */
async function freshOrder(): Promise<string> {
  const t = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
  const number = `EX-${Date.now()}-${++seq}`;
  const order = await db().order.create({
    data: { tenantId: t.id, number, customerId: ana, currency: "EUR", totalMinor: 3_300, capturedMinor: 3_300, items: [] },
  });
  await db().payment.create({
    data: {
      tenantId: t.id,
      orderId: order.id,
      method: "card",
      providerPaymentRef: `pi_ex_${number}`,
      holderName: "Ana García",
      display: "Visa •••• 4242",
      amountMinor: 3_300,
      currency: "EUR",
    },
  });
  return number;
}

/** What every example must show for the refund script: the database and the audit trail agree. */
async function expectRefundPrepared(order: string, traceId: string, calls: { name: string; code: string }[]) {
  expect(calls).toEqual([
    { name: "search_orders", code: "unknown_tool" },
    { name: "lookup_order", code: "ok" },
    { name: "prepare_refund", code: "invalid_arguments" },
    { name: "prepare_refund", code: "approval_required" },
  ]);
  const proposals = await db().proposal.findMany({ where: { order: { number: order } } });
  expect(proposals).toHaveLength(1);
  expect(proposals[0]).toMatchObject({ status: "pending_approval", amountMinor: 3_300 });
  const events = await db().auditEvent.findMany({ where: { traceId }, orderBy: { pos: "asc" }, select: { action: true, outcome: true } });
  expect(events.map((e) => `${e.action}:${e.outcome}`)).toEqual([
    "tool:search_orders:unknown_tool",
    "tool:lookup_order:ok",
    "tool:prepare_refund:invalid_arguments",
    "tool:prepare_refund:approval_required",
  ]);
}

describe("examples/anthropic-messages (@anthropic-ai/sdk)", () => {
  it("nudges a narrated call once, returns errors to the model as tool results, clears old results, prepares the refund", async () => {
    const order = await freshOrder();
    const vendor = await startScriptedVendor(refundScript(order));
    try {
      const cfg = await gatewayConfig();
      const client = new Anthropic({ apiKey: "test-key", baseURL: vendor.url, maxRetries: 0 });
      const run = await runAnthropicAgent({
        client,
        gateway: cfg,
        model: "claude-scripted",
        userMessage: `My order ${order} arrived broken, I want a refund.`,
        budget: { maxSteps: 8, maxToolErrors: 3, keepToolResults: 2 },
      });
      expect(run.stoppedBecause).toBeNull();
      expect(run.nudged).toBe(true);
      expect(run.text).toContain("awaits review");
      await expectRefundPrepared(order, cfg.traceId, run.calls);

      type Msg = { role: string; content: string | { type: string; content?: string; is_error?: boolean }[] };
      const sent = vendor.requests.map((r) => r.body as { messages: Msg[]; tools: { name: string; strict?: boolean }[] });
      expect(sent).toHaveLength(6);
      // The served tools are Anthropic's strict shape straight from the gateway.
      expect(sent[0]!.tools.map((t) => t.name)).toContain("prepare_refund");
      expect(sent[0]!.tools.every((t) => t.strict === true)).toBe(true);
      // Turn 2 carries the one nudge after the narrated call.
      expect(sent[1]!.messages.at(-1)).toEqual({ role: "user", content: NUDGE });
      // Turn 3: the unknown_tool error went back to the model as an is_error tool_result.
      const third = sent[2]!.messages.at(-1)!.content as { type: string; content?: string; is_error?: boolean }[];
      expect(third[0]).toMatchObject({ type: "tool_result", is_error: true });
      expect(JSON.parse(third[0]!.content!).code).toBe("unknown_tool");
      // Last turn: only the newest two tool results are verbatim; the older ones are cleared.
      const results = sent[5]!.messages.flatMap((m) => (typeof m.content === "string" ? [] : m.content.filter((b) => b.type === "tool_result")));
      expect(results.map((r) => r.content === CLEARED)).toEqual([true, true, false, false]);
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

  it.skipIf(!process.env.ANTHROPIC_API_KEY)("runs against the real Anthropic API when ANTHROPIC_API_KEY is set", async () => {
    const order = await freshOrder();
    const run = await runAnthropicAgent({
      client: new Anthropic(),
      gateway: await gatewayConfig(),
      model: process.env.ANTHROPIC_MODEL ?? "claude-sonnet-4-5",
      userMessage: `My order ${order} arrived broken (damaged item). Please refund it.`,
    });
    expect(run.calls.some((c) => c.name === "prepare_refund" && c.code === "approval_required")).toBe(true);
  });
});

describe("examples/openai-agents (@openai/agents)", () => {
  // The Agents SDK refuses a tool name it does not know before anything reaches the gateway, so this script
  // has no invented tool; everything else is the same conversation.
  const script = (order: string) => refundScript(order).filter((t) => !t.calls?.some((c) => c.name === "search_orders"));

  it("nudges a narrated call once, returns invalid_arguments to the model, clears old results, prepares the refund", async () => {
    const order = await freshOrder();
    const vendor = await startScriptedVendor(script(order));
    try {
      const cfg = await gatewayConfig();
      const provider = new OpenAIProvider({ apiKey: "test-key", baseURL: `${vendor.url}/v1`, useResponses: true });
      const run = await runOpenAIAgent({
        provider,
        gateway: cfg,
        model: "gpt-scripted",
        userMessage: `My order ${order} arrived broken, I want a refund.`,
        budget: { maxSteps: 8, maxToolErrors: 3, keepToolResults: 1 },
      });
      expect(run.stoppedBecause).toBeNull();
      expect(run.nudged).toBe(true);
      expect(run.text).toContain("awaits review");
      expect(run.calls).toEqual([
        { name: "lookup_order", code: "ok" },
        { name: "prepare_refund", code: "invalid_arguments" },
        { name: "prepare_refund", code: "approval_required" },
      ]);
      const proposals = await db().proposal.findMany({ where: { order: { number: order } } });
      expect(proposals.map((p) => p.status)).toEqual(["pending_approval"]);

      type Item = { type?: string; role?: string; content?: unknown; output?: string; name?: string; strict?: boolean };
      const sent = vendor.requests.map((r) => r.body as { input: Item[]; tools: Item[] });
      expect(sent.every((b) => vendor.requests[0]!.path.endsWith("/responses") && Array.isArray(b.input))).toBe(true);
      expect(sent[0]!.tools.map((t) => t.name)).toContain("prepare_refund");
      expect(sent[0]!.tools.every((t) => t.strict === true)).toBe(true);
      expect(JSON.stringify(sent[1]!.input)).toContain(NUDGE);
      // The invalid_arguments answer reached the model as the function_call_output.
      const outputs = sent[3]!.input.filter((i) => i.type === "function_call_output");
      expect(JSON.parse(outputs.at(-1)!.output!).code).toBe("invalid_arguments");
      // Last request: only the newest result is verbatim.
      const last = sent
        .at(-1)!
        .input.filter((i) => i.type === "function_call_output")
        .map((i) => i.output === CLEARED);
      expect(last).toEqual([true, true, false]);
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
      model: process.env.OPENAI_MODEL ?? "gpt-4.1-mini",
      userMessage: `My order ${order} arrived broken (damaged item). Please refund it.`,
    });
    expect(run.calls.some((c) => c.name === "prepare_refund" && c.code === "approval_required")).toBe(true);
  });
});

/** The AI SDK's documented mock model, answering the same scripted turns; every prompt it saw is kept. */
function scriptedModel(turns: ScriptedTurn[]) {
  const prompts: unknown[] = [];
  let i = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      prompts.push(options.prompt);
      const turn = i < turns.length ? turns[i++]! : turns[turns.length - 1]!;
      const content = [
        ...(turn.text ? [{ type: "text" as const, text: turn.text }] : []),
        ...(turn.calls ?? []).map((c, n) => ({ type: "tool-call" as const, toolCallId: `tc_${i}_${n}`, toolName: c.name, input: JSON.stringify(c.args) })),
      ];
      return {
        content,
        finishReason: { unified: turn.calls?.length ? ("tool-calls" as const) : ("stop" as const), raw: undefined },
        usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
        warnings: [],
      };
    },
  });
  return { model, prompts };
}

describe("examples/vercel-ai (ai, MockLanguageModelV4)", () => {
  const script = (order: string) => refundScript(order).filter((t) => !t.calls?.some((c) => c.name === "search_orders"));

  it("nudges a narrated call once, returns invalid_arguments to the model, clears old results, prepares the refund (Chat Completions shape)", async () => {
    const order = await freshOrder();
    const { model, prompts } = scriptedModel(script(order));
    const cfg = await gatewayConfig();
    const run = await runVercelAgent({
      model,
      gateway: cfg,
      userMessage: `My order ${order} arrived broken, I want a refund.`,
      budget: { maxSteps: 8, maxToolErrors: 3, keepToolResults: 1 },
    });
    expect(run.stoppedBecause).toBeNull();
    expect(run.nudged).toBe(true);
    expect(run.text).toContain("awaits review");
    expect(run.calls).toEqual([
      { name: "lookup_order", code: "ok" },
      { name: "prepare_refund", code: "invalid_arguments" },
      { name: "prepare_refund", code: "approval_required" },
    ]);
    expect((await db().proposal.findMany({ where: { order: { number: order } } })).map((p) => p.status)).toEqual(["pending_approval"]);
    const audit = await db().auditEvent.findFirst({ where: { traceId: cfg.traceId, action: "tool:prepare_refund", outcome: "approval_required" } });
    expect((audit?.data as { transport?: string }).transport).toBe("openai_chat");

    type Part = { type: string; output?: { type: string; value: unknown } };
    type Msg = { role: string; content: string | Part[] };
    const seen = prompts as Msg[][];
    expect(JSON.stringify(seen[1])).toContain(NUDGE);
    const resultsOf = (p: Msg[]) => p.flatMap((m) => (m.role === "tool" && Array.isArray(m.content) ? m.content.filter((x) => x.type === "tool-result") : []));
    expect(JSON.parse(String(resultsOf(seen[3]!).at(-1)!.output!.value)).code).toBe("invalid_arguments");
    expect(resultsOf(seen.at(-1)!).map((r) => r.output!.value === CLEARED)).toEqual([true, true, false]);
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
  it("the same conversation over MCP: unknown tool and invalid arguments come back as isError results, the refund is prepared", async () => {
    const order = await freshOrder();
    const vendor = await startScriptedVendor(refundScript(order));
    try {
      const cfg = await gatewayConfig();
      const anthropic = new Anthropic({ apiKey: "test-key", baseURL: vendor.url, maxRetries: 0 });
      const run = await runMcpAgent({
        anthropic,
        gateway: cfg,
        model: "claude-scripted",
        userMessage: `My order ${order} arrived broken, I want a refund.`,
        budget: { maxSteps: 8, maxToolErrors: 3, keepToolResults: 2 },
      });
      expect(run.stoppedBecause).toBeNull();
      expect(run.nudged).toBe(true);
      await expectRefundPrepared(order, cfg.traceId, run.calls);
      const events = await db().auditEvent.findMany({ where: { traceId: cfg.traceId } });
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
      const tools = (await (await fetch(`${cfg.baseUrl}/api/agent/tools?format=openai_chat`, { headers })).json()).tools as OpenAI.Chat.ChatCompletionTool[];
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: "user", content: `Refund my broken order ${order}.` }];
      for (let step = 0; step < 4; step++) {
        const completion = await openai.chat.completions.create({ model: "gpt-scripted", messages, tools });
        const message = completion.choices[0]!.message;
        messages.push(message);
        if (!message.tool_calls?.length) break;
        for (const call of message.tool_calls) {
          // The tool call item as the SDK returned it; the answer is a ready tool message.
          const answer = await (await fetch(`${cfg.baseUrl}/api/agent/tool-calls`, { method: "POST", headers, body: JSON.stringify(call) })).json();
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
      const assistantCalls = (sent[1]!.messages.find((m) => m.role === "assistant") as unknown as { tool_calls: { id: string }[] }).tool_calls.map((c) => c.id);
      expect(toolMessages.map((m) => m.tool_call_id)).toEqual(assistantCalls);
      expect((await db().proposal.findMany({ where: { order: { number: order } } })).map((p) => p.status)).toEqual(["pending_approval"]);
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
