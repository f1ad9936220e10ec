import "server-only";
import { context, trace, SpanKind, type Context, type Link } from "@opentelemetry/api";
import {
  isErrorOutcome,
  parseTraceparent,
  resolveTraceId,
  type TraceParent,
  type TraceSource,
  type ToolOutcome,
} from "@/lib/domain/agent-protocol";
import { scrubText, truncateText } from "@/lib/domain/redaction";
import { auditFingerprint } from "@/lib/server/audit/fingerprint";
import { metrics, toolLabel } from "./metrics";
import { markError, traceresponseOf, withSpan } from "./tracing";

/** The trace of one agent call: the audit trace id and the caller's W3C parent, if it sent one. */
export type AgentTrace = { traceId: string; source: TraceSource; parent: TraceParent | null };

/**
 * The agent's trace context, from the `traceparent` (HTTP header, or MCP `params._meta.traceparent` — pass
 * it as `traceparent`) or `X-Trace-Id`: lib/domain/agent-protocol.ts parses them. When the caller sent
 * neither, the id of the request's span (Next.js's HTTP span) is the trace id, so the audit trail, the
 * X-Trace-Id answer and the exported trace share one id.
 */
export function resolveAgentTrace(traceparent: string | null | undefined, xTraceId: string | null): AgentTrace {
  const resolved = resolveTraceId(traceparent ?? null, xTraceId);
  const parent = resolved.source === "traceparent" ? parseTraceparent(traceparent) : null;
  if (resolved.source === "generated") {
    const active = trace.getSpanContext(context.active());
    if (active && trace.isSpanContextValid(active))
      return { traceId: active.traceId, source: "generated", parent: null };
  }
  return { ...resolved, parent };
}

/**
 * The trace of one MCP tool call: a valid `params._meta.traceparent` wins over the request's headers (MCP
 * clients without HTTP headers carry the trace context there); otherwise the request's trace.
 */
export function mcpCallTrace(
  request: Pick<AgentTrace, "traceId" | "parent">,
  meta: unknown,
): Pick<AgentTrace, "traceId" | "parent"> {
  const tp = meta && typeof meta === "object" ? (meta as Record<string, unknown>).traceparent : undefined;
  if (typeof tp !== "string" || !parseTraceparent(tp)) return request;
  const own = resolveAgentTrace(tp, null);
  return { traceId: own.traceId, parent: own.parent };
}

/**
 * The parent of an agent call's span: the caller's traceparent. Under Next.js the HTTP span already continues
 * the header's trace, so the call stays its child; a traceparent that arrived another way (MCP `_meta`) becomes
 * the parent, and the HTTP span of the request is linked.
 */
function parentOf(parent: TraceParent | null): { ctx: Context; links: Link[] } {
  const active = context.active();
  const activeSc = trace.getSpanContext(active);
  if (!parent || (activeSc && activeSc.traceId === parent.traceId)) return { ctx: active, links: [] };
  const ctx = trace.setSpanContext(active, {
    traceId: parent.traceId,
    spanId: parent.spanId,
    traceFlags: parent.sampled ? 1 : 0,
    isRemote: true,
  });
  return { ctx, links: activeSc && trace.isSpanContextValid(activeSc) ? [{ context: activeSc }] : [] };
}

export type ToolSpanInfo = {
  name: string;
  callId: string;
  transport: string;
  trace: { traceId: string; parent?: TraceParent | null };
  tenantId: string;
  agentKeyId: string;
  channel: string;
};

/**
 * `execute_tool {tool}` (OpenTelemetry GenAI conventions) around one tool call: the tool's name and call id,
 * never its arguments or result. The outcome code, the proposal's id and hash are added from the result; the
 * tool-call counter moves. `run` gets the span's `traceresponse` value for the answer's header.
 */
export async function traceToolCall<R extends { outcome: ToolOutcome; proposal: { id: string; hash: string } | null }>(
  info: ToolSpanInfo,
  run: () => Promise<R>,
): Promise<R & { traceresponse: string | null }> {
  // Caller-written text is scrubbed like the log line (an invented name may hold a card number or an e-mail).
  const tool = truncateText(scrubText(info.name, auditFingerprint), 64);
  const { ctx, links } = parentOf(info.trace.parent ?? null);
  return withSpan(
    `execute_tool ${tool}`,
    {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": tool,
      "gen_ai.tool.type": "function",
      "gen_ai.tool.call.id": truncateText(scrubText(info.callId, auditFingerprint), 128),
      "approvalgw.transport": info.transport,
      "approvalgw.tenant.id": info.tenantId,
      "approvalgw.agent_key.id": info.agentKeyId,
      "approvalgw.channel": info.channel,
    },
    async (span) => {
      const sc = span.spanContext();
      // The audit trace id, when it is not this trace's (the agent sent X-Trace-Id, not traceparent).
      if (info.trace.traceId !== sc.traceId) span.setAttribute("approvalgw.trace_id", info.trace.traceId);
      const result = await run();
      const code = result.outcome.code;
      span.setAttribute("approvalgw.outcome", code);
      if (result.proposal)
        span.setAttributes({
          "approvalgw.proposal.id": result.proposal.id,
          "approvalgw.proposal.hash": result.proposal.hash,
        });
      if (isErrorOutcome(result.outcome)) markError(span, code);
      metrics().toolCalls.inc({ tool: toolLabel(info.name), code });
      return { ...result, traceresponse: traceresponseOf(span) };
    },
    { parent: ctx, links, kind: SpanKind.INTERNAL },
  );
}
