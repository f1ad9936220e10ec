import "server-only";
import { UUID_PATTERN } from "@/lib/domain/validation";
import { randomUUID } from "node:crypto";
import { can, type Permission } from "@/lib/domain/permissions";
import { AppError } from "@/lib/domain/outcome";
import { parseInput } from "@/lib/domain/validation";
import { auditSearchInput, type AuditSearchFilters, type AuditSearchInput } from "@/lib/schemas/audit";
import type { Actor } from "@/lib/server/auth/actor";
import { sqlPool } from "@/lib/server/db/pg";
import { prepared, sql, type RawBuilder, type Sql, utc } from "@/lib/server/db/sql";
import { auditFingerprintsForSearch } from "./fingerprint";
import { recordStaffEvent } from "./record-event";
import { toAuditEventView, type AuditEventView } from "./audit-event-view";
import type { LoggedEvent } from "@/lib/domain/audit-log";

export type AuditSearchPage = { events: AuditEventView[]; nextCursor: string | null };

export function parseAuditSearch(input: AuditSearchInput): AuditSearchFilters {
  return parseInput(auditSearchInput, input, "Some search filters are not valid.");
}

/**
 * The fingerprints a typed personal value stands for: its own keyed HMAC and, when it is the email of one
 * of the tenant's customers, that customer's end-user fingerprint (agent calls made for them carry it) — each
 * under the current key and, during a rotation overlap, the previous one.
 */
async function subjectFingerprints(r: Sql, tenantId: string, subject: string): Promise<string[]> {
  const fps = auditFingerprintsForSearch(subject);
  if (subject.includes("@")) {
    const [customer] = (
      await sql<{
        id: string;
      }>`SELECT "id" FROM "Customer" WHERE "tenantId" = ${tenantId}::uuid AND lower("email") = lower(${subject.trim()}) LIMIT 1`.execute(
        r,
      )
    ).rows;
    if (customer) fps.push(...auditFingerprintsForSearch(customer.id));
  }
  return fps;
}

async function actorIds(r: Sql, tenantId: string, actor: string): Promise<string[]> {
  if (!actor.includes("@")) return [actor];
  const [staff] = (
    await sql<{
      id: string;
    }>`SELECT "id" FROM "StaffUser" WHERE "tenantId" = ${tenantId}::uuid AND lower("email") = lower(${actor}) LIMIT 1`.execute(
      r,
    )
  ).rows;
  return staff ? [staff.id] : [];
}

/**
 * One keyset page (newest first, by write position) of the tenant's events matching the filters, each with its
 * leaf index and its actor's name — one statement, on any handle of the typed SQL layer (the pool for a
 * search, a Prisma transaction for an export).
 */
export async function findAuditEvents(
  q: Sql,
  tenantId: string,
  f: AuditSearchFilters,
  limit = f.limit,
): Promise<AuditSearchPage> {
  const where: RawBuilder<unknown>[] = [sql`"tenantId" = ${tenantId}::uuid`];
  if (f.traceId) where.push(sql`"traceId" = ${f.traceId}`);
  if (f.from) where.push(sql`"occurredAt" >= ${utc(f.from)}`);
  if (f.to) where.push(sql`"occurredAt" <= ${utc(f.to)}`);
  if (f.actor) where.push(sql`"actorId" = ANY(${await actorIds(q, tenantId, f.actor)}::text[])`);
  if (f.action) where.push(sql`"action" = ${f.action}`);
  if (f.outcome) where.push(sql`"outcome" = ${f.outcome}`);
  if (f.proposalId) where.push(sql`"proposalId" = ${f.proposalId}::uuid`);
  // `&&` (overlap) on the text[] column is answered by the GIN index AuditEvent_fingerprints_idx.
  if (f.subject) where.push(sql`"fingerprints" && ${await subjectFingerprints(q, tenantId, f.subject)}::text[]`);
  if (f.cursor) where.push(sql`"pos" < ${f.cursor}`);
  // One statement: the page (keyset on the write position, newest first; an exact traceId is an ordered scan
  // of AuditEvent_tenantId_traceId_pos_idx per partition), each event's leaf index (null: not integrated
  // yet — shown as pending) and who its actor is: a staff member or agent key of this tenant only, by primary
  // key (an id from another tenant's row, were there one, names nobody here). Only the columns the view shows.
  // Prepared: one text per combination of filters, so each connection parses it once.
  const { rows } = await prepared(
    sql<Omit<LoggedEvent, "leafIndex"> & { pos: bigint; leafIndex: number | null; actorName: string | null }>`
    SELECT e.*, l."leafIndex",
           CASE e."actorType" WHEN 'staff' THEN s."name" || ' <' || s."email" || '>' WHEN 'agent' THEN k."name" END AS "actorName"
      FROM (SELECT "id", "pos", "occurredAt", "traceId", "actorType", "actorId", "authMethod", "action", "outcome", "proposalId", "proposalHash",
                   "model", "promptVersion", "channel", "endUser", "data", "fingerprints", "hash",
                   CASE WHEN "actorId" ~ ${UUID_PATTERN} THEN "actorId"::uuid END AS "actorUuid"
              FROM "AuditEvent" WHERE ${sql.join(where, sql` AND `)} ORDER BY "pos" DESC LIMIT ${limit + 1}) e
      LEFT JOIN "AuditLeaf" l ON l."eventId" = e."id"
      LEFT JOIN "StaffUser" s ON e."actorType" = 'staff' AND s."id" = e."actorUuid" AND s."tenantId" = ${tenantId}::uuid
      LEFT JOIN "AgentKey" k ON e."actorType" = 'agent' AND k."id" = e."actorUuid" AND k."tenantId" = ${tenantId}::uuid
     ORDER BY e."pos" DESC`,
  ).execute(q);
  const page = rows.slice(0, limit);
  return {
    events: page.map((row) => ({ ...toAuditEventView(row, row.leafIndex), actorName: row.actorName })),
    nextCursor: rows.length > limit ? String(page[page.length - 1]!.pos) : null,
  };
}

/** What a search event records: the filters, with the typed personal value under a personal field name so
 *  the writer stores only its fingerprint. */
export function searchAuditData(f: AuditSearchFilters, extra: Record<string, unknown> = {}) {
  return {
    traceId: f.traceId,
    from: f.from?.toISOString(),
    to: f.to?.toISOString(),
    tz: f.tz,
    actor: f.actor,
    action: f.action,
    outcome: f.outcome,
    proposalId: f.proposalId,
    cursor: f.cursor,
    subjectUser: f.subject,
    ...extra,
  };
}
/**
 * The trace id of a search / export / trace-view event. Free-text scrubbing may mask digit runs of a
 * searched trace id inside `data`, so a lookup of one trace is recorded under `audit:<that traceId>` (the
 * trace id column is never scrubbed): "who looked at trace X" is the exact search `audit:X`.
 */
export function auditLookupTraceId(kind: string, traceId?: string): string {
  return traceId ? `audit:${traceId}`.slice(0, 128) : `audit-${kind}-${randomUUID()}`;
}
export const searchAuditClear = [
  "traceId",
  "from",
  "to",
  "tz",
  "action",
  "outcome",
  "proposalId",
  "cursor",
  "format",
  "count",
  "results",
];

/** A search for one exact traceId and nothing else (paging aside): what `audit:trace` allows. */
export function isExactTraceLookup(f: AuditSearchFilters): boolean {
  return !!f.traceId && !f.from && !f.to && !f.actor && !f.action && !f.outcome && !f.proposalId && !f.subject;
}

/**
 * Refuses unless the actor holds `permission`; a refusal is itself an audit event (who tried to look up
 * what), committed on its own since nothing else happens.
 */
export async function authorizeAuditAccess(
  actor: Actor,
  permission: Permission,
  action: string,
  traceId: string | undefined,
  data: Record<string, unknown>,
): Promise<void> {
  if (can(actor.roles, permission)) return;
  await recordStaffEvent(sqlPool(), actor, {
    traceId: auditLookupTraceId("denied", traceId),
    action,
    outcome: "permission_denied",
    data: { ...data, permission },
    redaction: { clear: [...searchAuditClear, "permission"] },
  });
  throw new AppError("permission_denied", "Your role does not allow this.");
}

/**
 * Search over the actor's tenant: an exact traceId for anyone who may look up a trace (reviewers, ops,
 * auditors, admins); any other filter, fingerprint or time range for auditors and admins only. The search
 * itself is an audit event: no results without the record of who searched for what — the page is read, its
 * search event (with the result count) committed, and only then are the results returned; if the event cannot
 * be written, nothing is returned. Two round trips on the pool (node-postgres), no interactive transaction: the
 * page (with leaf indexes and actor names) is one statement and needs none, and the event is one statement
 * (event + sequencer queue row) that commits on its own. A refused search is recorded too.
 */
export async function searchAuditEvents(actor: Actor, input: AuditSearchInput): Promise<AuditSearchPage> {
  const f = parseAuditSearch(input);
  await authorizeAuditAccess(
    actor,
    isExactTraceLookup(f) ? "audit:trace" : "audit:read",
    "audit:search",
    f.traceId,
    searchAuditData(f),
  );
  // Straight on the pool: the read and the event are one statement each, auto-committed (no transaction).
  const page = await findAuditEvents(sqlPool(), actor.tenantId, f);
  await recordStaffEvent(sqlPool(), actor, {
    traceId: auditLookupTraceId("search", f.traceId),
    action: "audit:search",
    outcome: "ok",
    data: searchAuditData(f, { results: page.events.length }),
    redaction: { clear: searchAuditClear },
  });
  return page;
}
