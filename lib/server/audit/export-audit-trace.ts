import "server-only";
import type { Actor } from "@/lib/server/auth/actor";
import { sqlPool } from "@/lib/server/db/pg";
import { recordStaffEvent } from "./record-event";
import { auditLookupTraceId, authorizeAuditAccess } from "./search-audit-events";
import { type AuditExport, toCsv } from "./export-audit-events";
import { loadAuditTrace } from "./get-audit-trace";

/**
 * Exactly what the trace page shows, as a download: the trace's events and every event of the proposals it made
 * (the reviewers' decisions and the execution included), in write order — CSV (the search export's columns) or
 * JSON (with the proposals' summary and their approvals). Whoever may look the trace up may export it; the
 * export is itself audited, filed under `audit:<traceId>` (never under the trace it reads).
 */
export async function exportAuditTrace(actor: Actor, traceId: string, format: "csv" | "json"): Promise<AuditExport> {
  const id = traceId.trim().slice(0, 128);
  await authorizeAuditAccess(actor, "audit:trace", "audit:export_trace", id, { traceId: id, format });
  const trace = await loadAuditTrace(actor, id);
  await recordStaffEvent(sqlPool(), actor, {
    traceId: auditLookupTraceId("export", id),
    action: "audit:export_trace",
    outcome: trace.steps.length ? "ok" : "not_found",
    data: { traceId: id, format, events: trace.steps.length },
    redaction: { clear: ["traceId", "format", "events"] },
  });
  const name = `trace-${id.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 64)}`;
  return format === "csv"
    ? {
        filename: `${name}.csv`,
        contentType: "text/csv; charset=utf-8",
        body: toCsv(trace.steps, actor.timeZone),
        count: trace.steps.length,
      }
    : {
        filename: `${name}.json`,
        contentType: "application/json; charset=utf-8",
        body: JSON.stringify({ exportedAt: new Date().toISOString(), ...trace }, null, 2),
        count: trace.steps.length,
      };
}
