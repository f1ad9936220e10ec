import "server-only";
import {
  context,
  trace,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanContext,
} from "@opentelemetry/api";
import { parseTraceparent } from "@/lib/domain/agent-protocol";

// Spans of the product (docs/observability.md). Only the OpenTelemetry API here: without a registered SDK
// (lib/server/telemetry/setup.ts) every call is a no-op. Attributes are ids, hashes, names from fixed lists
// and outcome codes — never arguments, results, free text or exception messages (they can hold personal data).

export const tracer = () => trace.getTracer("approval-gateway");

export type SpanOptions = { parent?: Context; links?: Link[]; kind?: SpanKind };

/**
 * Runs `fn` inside a new active span (children and enqueued jobs join it) and ends it. A throw marks the span
 * as an error with the error's class (or code) as `error.type` — not its message — and is re-thrown.
 */
export async function withSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
  opts: SpanOptions = {},
): Promise<T> {
  const span = tracer().startSpan(
    name,
    { attributes, kind: opts.kind ?? SpanKind.INTERNAL, links: opts.links },
    opts.parent ?? context.active(),
  );
  try {
    return await context.with(trace.setSpan(opts.parent ?? context.active(), span), () => fn(span));
  } catch (error) {
    markError(span, errorType(error));
    throw error;
  } finally {
    span.end();
  }
}

export function markError(span: Span, type: string): void {
  span.setAttribute("error.type", type);
  span.setStatus({ code: SpanStatusCode.ERROR });
}

function errorType(error: unknown): string {
  const e = error as { code?: unknown; name?: unknown } | null;
  if (e && typeof e.code === "string" && /^[a-z_]{1,40}$/.test(e.code)) return e.code;
  return e && typeof e.name === "string" ? e.name.slice(0, 60) : "_OTHER";
}

/** The W3C form of a span context: `00-<trace id>-<span id>-<flags>`. */
export function formatTraceparent(sc: SpanContext): string {
  return `00-${sc.traceId}-${sc.spanId}-${sc.traceFlags & TraceFlags.SAMPLED ? "01" : "00"}`;
}

/** The active span's context as a `traceparent` (stored with jobs, proposals and audit queue rows), or null. */
export function currentTraceparent(): string | null {
  const sc = trace.getSpanContext(context.active());
  return sc && trace.isSpanContextValid(sc) ? formatTraceparent(sc) : null;
}

/** A stored or received `traceparent` as a remote span context, or null when it is missing or malformed. */
export function spanContextOf(traceparent: string | null | undefined): SpanContext | null {
  const tp = parseTraceparent(traceparent);
  return tp
    ? {
        traceId: tp.traceId,
        spanId: tp.spanId,
        traceFlags: tp.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
        isRemote: true,
      }
    : null;
}

/** The context whose parent is the stored `traceparent` (or the active context when there is none). */
export function contextFrom(traceparent: string | null | undefined, base: Context = context.active()): Context {
  const sc = spanContextOf(traceparent);
  return sc ? trace.setSpanContext(base, sc) : base;
}

/** A link to the active span (when the new span gets another parent): the request that ran it. */
export function linkToActive(): Link[] {
  const sc = trace.getSpanContext(context.active());
  return sc && trace.isSpanContextValid(sc) ? [{ context: sc }] : [];
}

/** W3C Trace Context Level 2 `traceresponse` of a span: `00-<trace id>-<span id>-<flags>`. */
export function traceresponseOf(span: Span | SpanContext | null | undefined): string | null {
  if (!span) return null;
  const sc = "spanContext" in span ? span.spanContext() : span;
  return trace.isSpanContextValid(sc) ? formatTraceparent(sc) : null;
}

/** The `traceresponse` of the active span (the request's, under Next.js), or null. */
export function activeTraceresponse(): string | null {
  return traceresponseOf(trace.getSpanContext(context.active()));
}
