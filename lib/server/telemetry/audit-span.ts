import "server-only";
import { ROOT_CONTEXT, type Link, type Span } from "@opentelemetry/api";
import { markError, spanContextOf, tracer } from "./tracing";

/** OpenTelemetry's default limit of links per span: a bigger batch links the first traces it met. */
const MAX_LINKS = 128;

/**
 * `integrate_audit_batch`: one sequencer batch of one log. A batch integrates events of many traces, and a span
 * has one parent, so it starts its own trace and LINKS to the span that wrote each event (the traceparent kept
 * on the AuditPending row), one link per distinct writer.
 */
export function startIntegrateSpan(logId: string, rows: { traceparent?: string | null }[]): Span {
  const seen = new Set<string>();
  const links: Link[] = [];
  for (const row of rows) {
    if (links.length >= MAX_LINKS) break;
    const sc = row.traceparent && !seen.has(row.traceparent) ? spanContextOf(row.traceparent) : null;
    if (!sc) continue;
    seen.add(row.traceparent!);
    links.push({ context: sc });
  }
  return tracer().startSpan(
    "integrate_audit_batch",
    { attributes: { "approvalgw.audit.log_id": logId, "approvalgw.audit.batch_size": rows.length }, links },
    ROOT_CONTEXT,
  );
}

export function endIntegrateSpan(span: Span | null, result: { treeSize: number } | { error: unknown }): void {
  if (!span) return;
  if ("error" in result) markError(span, (result.error as { name?: string } | null)?.name ?? "Error");
  else span.setAttribute("approvalgw.audit.tree_size", result.treeSize);
  span.end();
}
