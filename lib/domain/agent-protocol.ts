// The agent HTTP contract (docs/design.md "Agent HTTP contract") as pure functions: trace ids, the two
// envelope families in and out, closest tool names, readable validation problems.
import { randomBytes } from "node:crypto";
import type { ErrorCode, SuccessCode } from "./outcome";

export type ToolOutcome =
  | { code: SuccessCode; result: Record<string, unknown> }
  | { code: ErrorCode; error: { message: string } & Record<string, unknown> };

export function isErrorOutcome(o: ToolOutcome): o is Extract<ToolOutcome, { error: unknown }> {
  return "error" in o;
}

export function failure(code: ErrorCode, message: string, details: Record<string, unknown> = {}): ToolOutcome {
  return { code, error: { message, ...details } };
}

// ---- trace ids ---------------------------------------------------------------------------------

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const TRACE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{7,127}$/;

export type TraceSource = "traceparent" | "x-trace-id" | "generated";

/** A W3C `traceparent` the caller sent (the parent of our spans, lib/server/telemetry/agent-trace.ts). */
export type TraceParent = { traceId: string; spanId: string; sampled: boolean };

/**
 * The one parser of a W3C `traceparent` (HTTP header or MCP `params._meta.traceparent`): version 00 layout,
 * version ff refused, all-zero trace or span ids refused. Anything else is null, never echoed.
 */
export function parseTraceparent(value: string | null | undefined): TraceParent | null {
  const tp = typeof value === "string" ? value.trim().toLowerCase().match(TRACEPARENT) : null;
  if (!tp || tp[1] === "ff" || /^0+$/.test(tp[2]!) || /^0+$/.test(tp[3]!)) return null;
  return { traceId: tp[2]!, spanId: tp[3]!, sampled: (parseInt(tp[4]!, 16) & 1) === 1 };
}

/**
 * W3C `traceparent` wins (its trace-id), then a well-formed `X-Trace-Id`, else a fresh 32-hex id.
 * Malformed values are ignored, never echoed.
 */
export function resolveTraceId(
  traceparent: string | null,
  xTraceId: string | null,
): { traceId: string; source: TraceSource } {
  const tp = parseTraceparent(traceparent);
  if (tp) return { traceId: tp.traceId, source: "traceparent" };
  const x = xTraceId?.trim();
  if (x && TRACE_ID.test(x)) return { traceId: x, source: "x-trace-id" };
  return { traceId: randomBytes(16).toString("hex"), source: "generated" };
}

// ---- end-user tokens -----------------------------------------------------------------------------

/**
 * The `aud` an end-user token must carry: the tenant and channel it was minted for, so a token for one
 * channel (web_support) is refused on another (community_chat) even where both share a secret.
 */
export function endUserTokenAudience(tenantSlug: string, channelSlug: string): string {
  return `${tenantSlug}/${channelSlug}`;
}

// ---- envelopes ---------------------------------------------------------------------------------

/** anthropic = Messages `tool_use`; openai = Responses `function_call`; openai_chat = Chat Completions `tool_calls[i]`. */
export type Family = "anthropic" | "openai" | "openai_chat";

export type ToolCall = { family: Family; callId: string; name: string; args: unknown };

export type EnvelopeProblem = { path: string; expected: string; message: string };

export type ParsedEnvelope =
  { ok: true; call: ToolCall } | { ok: false; family: Family; callId: string; problems: EnvelopeProblem[] };

const MAX_ID = 200;
const safeId = (v: unknown): string | null => (typeof v === "string" && v.length > 0 && v.length <= MAX_ID ? v : null);

/** Which family a body speaks, even when it is malformed (so the answer comes in the same shape). */
export function detectFamily(body: unknown): Family {
  if (body && typeof body === "object" && !Array.isArray(body)) {
    const b = body as Record<string, unknown>;
    if (b.type === "function" || "function" in b) return "openai_chat";
    if (b.type === "function_call" || "call_id" in b || "arguments" in b) return "openai";
  }
  return "anthropic";
}

const EXPECTED_SHAPES =
  'an object: {"type":"tool_use","id","name","input"} or {"type":"function_call","call_id","name","arguments"} or {"id","type":"function","function":{"name","arguments"}}';

/** The call id a body carries in its own family's field, or "unknown". */
export function envelopeCallId(body: unknown, family: Family): string {
  // A primitive has neither field: reading one gives undefined, as for {}.
  const b = (body ?? {}) as Record<string, unknown>;
  return safeId(family === "openai" ? b.call_id : b.id) ?? "unknown";
}

/**
 * Reads an Anthropic `tool_use` block, an OpenAI Responses `function_call` item or an OpenAI Chat
 * Completions `tool_calls[i]` item. OpenAI `arguments` is a JSON string (an object is tolerated); a string
 * that is not JSON is an argument problem, not a 400.
 */
export function parseEnvelope(body: unknown): ParsedEnvelope {
  const family = detectFamily(body);
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    return {
      ok: false,
      family,
      callId: "unknown",
      problems: [{ path: "$", expected: EXPECTED_SHAPES, message: "The body is not a tool call." }],
    };
  }
  const b = body as Record<string, unknown>;
  const problems: EnvelopeProblem[] = [];
  const idField = family === "openai" ? "call_id" : "id";
  const callId = safeId(b[idField]);
  if (!callId)
    problems.push({
      path: `$.${idField}`,
      expected: `a non-empty string of at most ${MAX_ID} characters`,
      message: `Missing or invalid ${idField}.`,
    });
  const expectedType = family === "openai" ? "function_call" : family === "openai_chat" ? "function" : "tool_use";
  if (b.type !== expectedType)
    problems.push({ path: "$.type", expected: `"${expectedType}"`, message: `type must be "${expectedType}".` });

  // Chat Completions nests name and arguments under `function`.
  const fn = family === "openai_chat" ? b.function : b;
  const prefix = family === "openai_chat" ? "$.function" : "$";
  // (For the other families fn is the body, already known to be an object.)
  if (!fn || typeof fn !== "object" || Array.isArray(fn)) {
    problems.push({ path: "$.function", expected: '{"name","arguments"}', message: "Missing or invalid function." });
    return { ok: false, family, callId: callId ?? "unknown", problems };
  }
  const f = fn as Record<string, unknown>;
  const name = typeof f.name === "string" && f.name.length <= 128 ? f.name : null; // "" is refused below too
  if (!name)
    problems.push({
      path: `${prefix}.name`,
      expected: "the tool name, a non-empty string",
      message: "Missing or invalid tool name.",
    });

  let args: unknown;
  if (family === "openai" || family === "openai_chat") {
    const raw = f.arguments;
    if (typeof raw === "string") {
      try {
        args = JSON.parse(raw);
      } catch {
        problems.push({
          path: `${prefix}.arguments`,
          expected: "a string holding a JSON object",
          message: "arguments is not valid JSON.",
        });
      }
    } else if (raw && typeof raw === "object" && !Array.isArray(raw)) {
      args = raw;
    } else {
      problems.push({
        path: `${prefix}.arguments`,
        expected: "a string holding a JSON object",
        message: "Missing or invalid arguments.",
      });
    }
  } else {
    args = b.input;
    if (!args || typeof args !== "object" || Array.isArray(args)) {
      problems.push({
        path: "$.input",
        expected: "an object with the tool's arguments",
        message: "Missing or invalid input.",
      });
    }
  }
  if (problems.length > 0) return { ok: false, family, callId: callId ?? "unknown", problems };
  return { ok: true, call: { family, callId: callId!, name: name!, args } };
}

export type ToolResponse =
  | { type: "tool_result"; tool_use_id: string; is_error: boolean; content: string }
  | { type: "function_call_output"; call_id: string; output: string }
  | { role: "tool"; tool_call_id: string; content: string };

/** The JSON string carried in `content` / `output` (and in MCP text content). */
export function outcomeContent(outcome: ToolOutcome, traceId: string): string {
  return isErrorOutcome(outcome)
    ? JSON.stringify({ code: outcome.code, error: outcome.error, traceId })
    : JSON.stringify({ code: outcome.code, result: outcome.result, traceId });
}

export function toolResponse(family: Family, callId: string, outcome: ToolOutcome, traceId: string): ToolResponse {
  const content = outcomeContent(outcome, traceId);
  if (family === "openai") return { type: "function_call_output", call_id: callId, output: content };
  // Chat Completions has no error flag on tool messages: the code inside content says it.
  if (family === "openai_chat") return { role: "tool", tool_call_id: callId, content };
  return { type: "tool_result", tool_use_id: callId, is_error: isErrorOutcome(outcome), content };
}

// ---- names ---------------------------------------------------------------------------------------

export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}

/**
 * The candidate closest to `name`, or null when none is close: case-insensitive edit distance, at most a third of
 * the longer name (a typo, a plural, another case or separator: "lookup_ordr", "getRefundStatus"), where a name
 * contained in a candidate (or containing it) counts as 1 from 4 characters — "refund_status" means
 * get_refund_status. A name nothing like any tool ("update_shipping_address") gets no suggestion: pointing it at
 * get_refund_status would send the agent the wrong way. Ties: first listed.
 */
export function closestName(name: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  const n = name.toLowerCase().slice(0, 128);
  for (const c of candidates) {
    const lc = c.toLowerCase();
    const contained = Math.min(n.length, lc.length) >= 4 && (lc.includes(n) || n.includes(lc));
    const d = contained ? Math.min(1, editDistance(n, lc)) : editDistance(n, lc);
    if (d > Math.floor(Math.max(n.length, lc.length) / 3)) continue;
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

// ---- validation problems -------------------------------------------------------------------------

type Issue = {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: unknown;
  values?: readonly unknown[];
  keys?: string[];
  minimum?: unknown;
  maximum?: unknown;
  format?: string;
  origin?: string;
};

export function jsonPath(path: readonly PropertyKey[]): string {
  return (
    "$" +
    path
      .map((p) =>
        typeof p === "number"
          ? `[${p}]`
          : /^[A-Za-z_][A-Za-z0-9_]*$/.test(String(p))
            ? `.${String(p)}`
            : `[${JSON.stringify(String(p).slice(0, 64))}]`,
      )
      .join("")
  );
}

/**
 * What the agent gateway adds to an unknown field's message: a model that writes `amount` or `customer_id` into
 * a tool call learns why it is refused. Other callers (the admin and staff APIs) do not derive those: their
 * message stops at "Only the listed fields are accepted."
 */
export const AGENT_UNKNOWN_FIELD_NOTE = "the server derives identity, amount, currency and recipient itself.";

/** Every zod issue as {path, expected, message}; unknown fields are named one by one. */
export function validationProblems(
  issues: readonly Issue[],
  shapeHint: Record<string, string> = {},
  unknownFieldNote: string | null = null,
): EnvelopeProblem[] {
  const out: EnvelopeProblem[] = [];
  for (const i of issues) {
    if (i.code === "unrecognized_keys") {
      for (const k of i.keys ?? []) {
        out.push({
          path: jsonPath([...i.path, k]),
          expected: "no such field",
          message: `Unknown field "${k.slice(0, 64)}". Only the listed fields are accepted${unknownFieldNote ? `; ${unknownFieldNote}` : "."}`,
        });
      }
      continue;
    }
    const path = jsonPath(i.path);
    let expected: string;
    switch (i.code) {
      case "invalid_type":
        expected = i.path.length === 0 ? "an object" : (shapeHint[path] ?? String(i.expected));
        break;
      case "invalid_value":
        expected = `one of ${(i.values ?? []).map((v) => JSON.stringify(v)).join(", ")}`;
        break;
      case "too_small":
        expected = i.origin === "string" ? `at least ${String(i.minimum)} characters` : `at least ${String(i.minimum)}`;
        break;
      case "too_big":
        expected = i.origin === "string" ? `at most ${String(i.maximum)} characters` : `at most ${String(i.maximum)}`;
        break;
      case "invalid_format":
        expected = shapeHint[path] ?? (i.format === "regex" ? "a value in the documented format" : `a ${i.format}`);
        break;
      default:
        expected = shapeHint[path] ?? "a value as documented";
    }
    out.push({ path, expected, message: i.message.slice(0, 200) });
  }
  return out.slice(0, 20);
}
