// A scripted stand-in for the model vendors' HTTP APIs (Anthropic Messages, OpenAI Responses and Chat
// Completions), so the example agents run through the official SDKs with no vendor key and no vendor network:
// the SDK's baseURL points here. Each request gets the next scripted turn; every request body is recorded for
// the test to inspect what the model saw. Used by tests/integration/examples.test.ts and by each example's
// main.ts with --scripted (examples/README.md).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type ScriptedTurn = { text?: string; calls?: { name: string; args: Record<string, unknown> }[] };
/** A turn, or a turn written from what the model was sent so far (the request body as JSON text). */
export type ScriptedStep = ScriptedTurn | ((seen: string) => ScriptedTurn);

/** The turn for this request: a fixed one, or one built from what the model has seen. */
export const turnFor = (step: ScriptedStep, seen: string): ScriptedTurn =>
  typeof step === "function" ? step(seen) : step;

export type ScriptedVendor = {
  url: string;
  /** Request bodies in order, per endpoint path. */
  requests: { path: string; body: Record<string, unknown> }[];
  close: () => Promise<void>;
};

let ids = 0;
const nextId = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++ids).toString(36)}`;

function anthropicMessage(turn: ScriptedTurn, model: string) {
  const content: Record<string, unknown>[] = [];
  if (turn.text) content.push({ type: "text", text: turn.text });
  for (const c of turn.calls ?? [])
    content.push({ type: "tool_use", id: nextId("toolu"), name: c.name, input: c.args });
  return {
    id: nextId("msg"),
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: turn.calls?.length ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 10 },
  };
}

function openaiResponse(turn: ScriptedTurn, model: string) {
  const output: Record<string, unknown>[] = [];
  if (turn.text) {
    output.push({
      type: "message",
      id: nextId("msg"),
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: turn.text, annotations: [] }],
    });
  }
  for (const c of turn.calls ?? []) {
    output.push({
      type: "function_call",
      id: nextId("fc"),
      call_id: nextId("call"),
      name: c.name,
      arguments: JSON.stringify(c.args),
      status: "completed",
    });
  }
  return {
    id: nextId("resp"),
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: "completed",
    model,
    output,
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    usage: {
      input_tokens: 10,
      output_tokens: 10,
      total_tokens: 20,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
}

function chatCompletion(turn: ScriptedTurn, model: string) {
  const toolCalls = (turn.calls ?? []).map((c) => ({
    id: nextId("call"),
    type: "function",
    function: { name: c.name, arguments: JSON.stringify(c.args) },
  }));
  return {
    id: nextId("chatcmpl"),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: turn.text ?? null,
          refusal: null,
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: toolCalls.length ? "tool_calls" : "stop",
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  };
}

/** `script` turns are served in order; after the last one, `after` (default: the last turn again). */
export async function startScriptedVendor(script: ScriptedStep[], after?: ScriptedStep): Promise<ScriptedVendor> {
  const requests: ScriptedVendor["requests"] = [];
  let i = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString() || "{}") as Record<string, unknown>;
      } catch {
        /* recorded as empty */
      }
      requests.push({ path, body });
      const turn = turnFor(
        i < script.length ? script[i++]! : (after ?? script[script.length - 1]!),
        JSON.stringify(body),
      );
      const model = typeof body.model === "string" ? body.model : "scripted";
      let answer: unknown;
      if (path.endsWith("/messages")) answer = anthropicMessage(turn, model);
      else if (path.endsWith("/responses")) answer = openaiResponse(turn, model);
      else if (path.endsWith("/chat/completions")) answer = chatCompletion(turn, model);
      else {
        res
          .writeHead(404, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { type: "not_found", message: `no scripted ${path}` } }));
        return;
      }
      res
        .writeHead(200, { "content-type": "application/json", "request-id": nextId("req") })
        .end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * The last value of a field inside the tool answers the model was sent. Answers travel as JSON strings inside
 * the request's JSON, so the quotes around the name may be escaped any number of times.
 */
export function lastAnswered(seen: string, field: string): string | null {
  const found = [...seen.matchAll(new RegExp(`${field}\\\\*"\\s*:\\s*\\\\*"([^"\\\\]+)`, "g"))];
  return found.at(-1)?.[1] ?? null;
}

/** The newest outcome code the model was sent (ok, approval_required, result_pending, an error code). */
export const lastCode = (seen: string) => lastAnswered(seen, "code");

/** What the scripted model tells the customer after waiting, from the last answer it read. */
export function afterWait(seen: string): ScriptedTurn {
  const code = lastCode(seen);
  if (code === "result_pending" || code === "ok")
    return { text: "Good news: a reviewer approved your refund and it is being paid." };
  if (code === "rejected")
    return { text: "A reviewer looked at your refund and could not approve it; the team will contact you." };
  return { text: "Your refund has been prepared and now awaits review by our team." };
}

/**
 * The conversation every example is tested with: the model first narrates a call instead of making it
 * (nudged once), invents a tool name (the error comes back as a tool result), recovers, invents an amount
 * (invalid_arguments comes back), recovers, prepares the refund, then waits for the reviewer with
 * get_refund_status and wait_seconds (one long wait, not a poll) and tells the customer what happened.
 */
export function refundScript(order: string): ScriptedStep[] {
  return [
    { text: `I'll call lookup_order with order_id ${order} to check it.` },
    { calls: [{ name: "search_orders", args: { order_id: order } }] },
    { calls: [{ name: "lookup_order", args: { order_id: order } }] },
    { calls: [{ name: "prepare_refund", args: { order_id: order, reason: "damaged_item", amount: 5 } }] },
    { calls: [{ name: "prepare_refund", args: { order_id: order, reason: "damaged_item" } }] },
    (seen) => ({
      calls: [
        {
          name: "get_refund_status",
          args: { proposal_id: lastAnswered(seen, "proposal_id") ?? "missing", wait_seconds: WAIT_SECONDS },
        },
      ],
    }),
    afterWait,
  ];
}

/** How long the scripted model waits for the reviewer in one call (the tool's maximum). */
export const WAIT_SECONDS = 25;
