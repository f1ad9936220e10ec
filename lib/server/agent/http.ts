import "server-only";
import {
  detectFamily,
  envelopeCallId,
  failure,
  parseEnvelope,
  toolResponse,
  type ToolOutcome,
  type TraceParent,
} from "@/lib/domain/agent-protocol";
import { toolDefinitions, toolFormats, type ToolFormat } from "@/lib/schemas/tools";
import { dynamicToolsFor } from "./dynamic-tools";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import { resolveAgentTrace } from "@/lib/server/telemetry/agent-trace";
import { activeTraceresponse } from "@/lib/server/telemetry/tracing";
import { authenticateAgentKey, type AgentCaller, type KeyCheck } from "./authenticate-agent-key";
import { executeToolCall, logFailure } from "./execute-tool-call";
import { BODY_LIMITS, readCappedBody } from "@/lib/config/body-limits";
import { clientSource, recordKeyRefusal, type RefusalDecision } from "./record-key-refusal";
import { sqlPool } from "@/lib/server/db/pg";

// The agent HTTP contract (docs/design.md): every answer is JSON in the caller's family with an X-Trace-Id
// header. HTTP errors only for a missing/invalid agent key (401, 429 when a source floods bad keys), a
// body that is not JSON (400) and a body over MAX_BODY (413).

/** The largest body any agent route reads (a tool call is a few hundred bytes). */
export const MAX_BODY = BODY_LIMITS.agent;

export type RequestMeta = {
  traceId: string;
  parent: TraceParent | null;
  model: string | null;
  promptVersion: string | null;
  endUserToken: string | null;
};

export function requestMeta(req: Request): RequestMeta {
  const h = req.headers;
  const trace = resolveAgentTrace(h.get("traceparent"), h.get("x-trace-id"));
  return {
    traceId: trace.traceId,
    parent: trace.parent,
    model: h.get("x-agent-model"),
    promptVersion: h.get("x-agent-prompt-version"),
    endUserToken: h.get("x-end-user-token"),
  };
}

function json(
  body: unknown,
  status: number,
  traceId: string,
  extra: Record<string, string> = {},
  traceresponse = activeTraceresponse(),
): Response {
  const headers: Record<string, string> = {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    "x-trace-id": traceId,
    ...extra,
  };
  if (traceresponse) headers.traceresponse = traceresponse;
  return new Response(JSON.stringify(body), { status, headers });
}

const UNAUTHENTICATED = "A valid agent key is required: Authorization: Bearer <agent key>.";

/** The HTTP routes' challenge: RFC 6750 Bearer (the agent key is a bearer token). */
export const BEARER_CHALLENGE = 'Bearer realm="agent"';

/**
 * A refused credential: counted per client address and minute in PostgreSQL (one audit event per window and
 * source, see record-key-refusal.ts), answered 401 — or 429 with Retry-After once the source (or everyone)
 * is over the refusal limit. The body is never read for it. `body` shapes the JSON answer.
 */
export async function refuseKey(
  check: Extract<KeyCheck, { ok: false }>,
  meta: RequestMeta,
  action: string,
  body: (o: ToolOutcome) => unknown,
  challenge: string = BEARER_CHALLENGE,
  headers: Headers = new Headers(),
): Promise<Response> {
  let decision: RefusalDecision = { throttled: false };
  try {
    decision = await recordKeyRefusal(check, {
      source: clientSource(headers),
      traceId: meta.traceId,
      action,
      model: meta.model,
      promptVersion: meta.promptVersion,
    });
  } catch (error) {
    logFailure("key refusal", meta, error);
  }
  if (decision.throttled) {
    const outcome = failure(
      "limit_exceeded",
      "Too many requests with an invalid agent key from this address. Wait and check the key.",
      {
        retry_after_seconds: decision.retryAfterSeconds,
      },
    );
    return json(body(outcome), 429, meta.traceId, { "retry-after": String(decision.retryAfterSeconds) });
  }
  return json(body(failure("unauthenticated", UNAUTHENTICATED)), 401, meta.traceId, { "www-authenticate": challenge });
}

/** The answer shape when the caller's family is not known (the body is not read before the key is verified). */
export const neutralShape = (traceId: string) => (o: ToolOutcome) => ({
  code: o.code,
  ...("error" in o ? { error: o.error } : {}),
  traceId,
});

/**
 * The agent key first, from the headers alone: nothing of the body is read for an unauthenticated caller, so its
 * refusal cannot be in the caller's family and uses the neutral {code, error, traceId} with the Bearer challenge.
 * The caller, or the refusal to send.
 */
async function callerOrRefusal(req: Request, meta: RequestMeta, action: string): Promise<AgentCaller | Response> {
  const key = await authenticateAgentKey(req.headers.get("authorization"));
  if (key.ok) return key.caller;
  return refuseKey(key, meta, action, neutralShape(meta.traceId), BEARER_CHALLENGE, req.headers);
}

async function readBody(
  req: Request,
): Promise<{ ok: true; value: unknown } | { ok: false; reason: string; tooLarge?: boolean }> {
  const body = await readCappedBody(req, MAX_BODY);
  if (!body.ok) {
    return body.reason === "too_large"
      ? { ok: false, reason: `The body is larger than ${MAX_BODY} bytes.`, tooLarge: true }
      : { ok: false, reason: "The body could not be read." };
  }
  try {
    return { ok: true, value: JSON.parse(body.text) };
  } catch {
    return { ok: false, reason: "The body is not JSON." };
  }
}

/** POST /api/agent/tool-calls */
export async function handleToolCallRequest(req: Request): Promise<Response> {
  const meta = requestMeta(req);
  try {
    const caller = await callerOrRefusal(req, meta, "tool-call");
    if (caller instanceof Response) return caller;

    const body = await readBody(req);
    const family = body.ok ? detectFamily(body.value) : "anthropic";
    const callId = body.ok ? envelopeCallId(body.value, family) : "unknown";
    const shape = (o: ToolOutcome) => toolResponse(family, callId, o, meta.traceId);

    if (!body.ok) {
      const outcome = failure("invalid_arguments", `${body.reason} Send one tool call as a JSON object.`, {
        problems: [
          { path: "$", expected: body.tooLarge ? `at most ${MAX_BODY} bytes` : "a JSON object", message: body.reason },
        ],
      });
      await recordBadBody(caller, meta, outcome, body.tooLarge ? "body too large" : "body is not JSON");
      return json(shape(outcome), body.tooLarge ? 413 : 400, meta.traceId);
    }

    const envelope = parseEnvelope(body.value);
    const name = envelope.ok ? envelope.call.name : nameOf(body.value);
    const args = envelope.ok ? envelope.call.args : argsOf(body.value);
    const { outcome, traceresponse } = await executeToolCall(
      caller,
      {
        traceId: meta.traceId,
        parent: meta.parent,
        transport: family,
        callId,
        endUserToken: meta.endUserToken,
        model: meta.model,
        promptVersion: meta.promptVersion,
        signal: req.signal,
      },
      name,
      args,
      envelope.ok ? [] : envelope.problems,
    );
    return json(toolResponse(family, callId, outcome, meta.traceId), 200, meta.traceId, {}, traceresponse);
  } catch (error) {
    logFailure("tool-calls route", meta, error);
    return json(
      toolResponse(
        "anthropic",
        "unknown",
        failure("internal_error", "Something went wrong on our side."),
        meta.traceId,
      ),
      200,
      meta.traceId,
    );
  }
}

/** The Chat Completions item nests name/arguments under `function`; the others keep them at the top. */
function callPart(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== "object") return {};
  const b = body as Record<string, unknown>;
  return b.function && typeof b.function === "object" && !Array.isArray(b.function)
    ? (b.function as Record<string, unknown>)
    : b;
}

function nameOf(body: unknown): string {
  const n = callPart(body).name;
  return typeof n === "string" ? n.slice(0, 128) : "(none)";
}

function argsOf(body: unknown): unknown {
  if (!body || typeof body !== "object") return body;
  const b = callPart(body);
  return b.input ?? b.arguments ?? null;
}

async function recordBadBody(
  caller: AgentCaller,
  meta: RequestMeta,
  outcome: ToolOutcome,
  problem: string,
): Promise<void> {
  try {
    await recordAuditEvent(sqlPool(), {
      tenantId: caller.tenantId,
      traceId: meta.traceId,
      actor: { type: "agent", id: caller.keyId, authMethod: "agent_key" },
      action: "tool-call",
      outcome: outcome.code,
      model: meta.model,
      promptVersion: meta.promptVersion,
      channel: caller.channelSlug,
      data: { problem },
    });
  } catch (error) {
    logFailure("audit", meta, error);
  }
}

/** GET /api/agent/tools?format=anthropic|openai|openai_chat */
export async function handleToolListRequest(req: Request): Promise<Response> {
  const meta = requestMeta(req);
  try {
    const caller = await callerOrRefusal(req, meta, "tools:list");
    if (caller instanceof Response) return caller;
    const raw = new URL(req.url).searchParams.get("format") ?? "anthropic";
    if (!(toolFormats as readonly string[]).includes(raw)) {
      const expected = toolFormats.map((f) => `"${f}"`).join(", ");
      return json(
        {
          code: "invalid_arguments",
          error: {
            message: `format must be one of ${expected}.`,
            problems: [{ path: "$.format", expected: `one of ${expected}`, message: "Unknown format." }],
          },
          traceId: meta.traceId,
        },
        400,
        meta.traceId,
      );
    }
    const format = raw as ToolFormat;
    // The catalogue's tools the key may call, then the tenant's declared ones (lib/server/agent/dynamic-tools.ts).
    const declared = await dynamicToolsFor(caller);
    return json(
      { format, tools: toolDefinitions(caller.tools, format, declared), traceId: meta.traceId },
      200,
      meta.traceId,
    );
  } catch (error) {
    logFailure("tools route", meta, error);
    return json(
      { code: "internal_error", error: { message: "Something went wrong on our side." }, traceId: meta.traceId },
      500,
      meta.traceId,
    );
  }
}
