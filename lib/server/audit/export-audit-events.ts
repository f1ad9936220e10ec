import "server-only";
import type { AuditSearchInput } from "@/lib/schemas/audit";
import type { Actor } from "@/lib/server/auth/actor";
import { sqlOf } from "@/lib/server/db/sql";
import { recordStaffEvent } from "./record-event";
import {
  auditLookupTraceId,
  authorizeAuditAccess,
  findAuditEvents,
  parseAuditSearch,
  searchAuditClear,
  searchAuditData,
} from "./search-audit-events";
import type { AuditEventView } from "./audit-event-view";
import { exportInstant } from "@/lib/domain/clock";
import { transaction } from "@/lib/server/db/transaction";

export const EXPORT_MAX_EVENTS = 10_000;
const PAGE = 500;

export type AuditExport = { filename: string; contentType: string; body: string; count: number };

const CSV_COLUMNS = [
  "leafIndex",
  "occurredAt",
  "occurredAtLocal",
  "traceId",
  "actorType",
  "actorId",
  "actorName",
  "authMethod",
  "action",
  "outcome",
  "proposalId",
  "proposalHash",
  "model",
  "promptVersion",
  "channel",
  "endUser",
  "fingerprints",
  "data",
  "hash",
  "id",
] as const;

function csvCell(v: unknown): string {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- objects and arrays are serialised first; String() only sees primitives
  const s = v == null ? "" : Array.isArray(v) ? v.join(" ") : typeof v === "object" ? JSON.stringify(v) : String(v);
  // Quote everything; neutralise spreadsheet formulas (CSV injection).
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** `occurredAt` stays UTC (ISO 8601); `occurredAtLocal` is the same instant in `timeZone`, with its offset. */
export function toCsv(events: AuditEventView[], timeZone: string): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const e of events) {
    const row = { ...e, occurredAtLocal: exportInstant(new Date(e.occurredAt), timeZone) };
    lines.push(CSV_COLUMNS.map((c) => csvCell(row[c])).join(","));
  }
  return lines.join("\r\n") + "\r\n";
}

/** CSV or JSON of every event matching the filters (newest first, capped), recorded as an audit event. */
export async function exportAuditEvents(
  actor: Actor,
  input: AuditSearchInput,
  format: "csv" | "json",
): Promise<AuditExport> {
  const f = parseAuditSearch({ ...input, cursor: undefined });
  await authorizeAuditAccess(actor, "audit:read", "audit:export", f.traceId, searchAuditData(f, { format }));
  return transaction(
    async (tx) => {
      const events: AuditEventView[] = [];
      let cursor: number | undefined;
      while (events.length < EXPORT_MAX_EVENTS) {
        const page = await findAuditEvents(
          sqlOf(tx),
          actor.tenantId,
          { ...f, cursor },
          Math.min(PAGE, EXPORT_MAX_EVENTS - events.length),
        );
        events.push(...page.events);
        if (!page.nextCursor) break;
        cursor = Number(page.nextCursor);
      }
      await recordStaffEvent(sqlOf(tx), actor, {
        traceId: auditLookupTraceId("export", f.traceId),
        action: "audit:export",
        outcome: "ok",
        data: searchAuditData(f, { format, count: events.length }),
        redaction: { clear: searchAuditClear },
      });
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      return format === "csv"
        ? {
            filename: `audit-${stamp}.csv`,
            contentType: "text/csv; charset=utf-8",
            body: toCsv(events, f.tz ?? actor.timeZone),
            count: events.length,
          }
        : {
            filename: `audit-${stamp}.json`,
            contentType: "application/json; charset=utf-8",
            body: JSON.stringify(
              {
                exportedAt: new Date().toISOString(),
                filters: { ...searchAuditData(f), subjectUser: f.subject ? "(fingerprint search)" : undefined },
                events,
              },
              null,
              2,
            ),
            count: events.length,
          };
    },
    { timeout: 30_000 },
  );
}
