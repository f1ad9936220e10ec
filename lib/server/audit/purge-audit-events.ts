import "server-only";
import { randomUUID } from "node:crypto";
import { logIdOf } from "@/lib/domain/audit-log";
import { db } from "@/lib/server/db/client";
import { sqlOf, sql, utc } from "@/lib/server/db/sql";
import { log } from "@/lib/server/log";
import { recordAuditEvent } from "./record-event";
import { verifyAuditChain } from "./verify-chain";
import { transaction } from "@/lib/server/db/transaction";
import { sqlPool } from "@/lib/server/db/pg";

/** Retention of the tenantless log (refused agent keys, unknown sign-in names): no tenant sets it. */
export const TENANTLESS_RETENTION_DAYS = 90;

export type PurgeResult =
  | { tenantId: string | null; status: "purged"; before: string; purged: number; held: number }
  | { tenantId: string | null; status: "nothing_to_purge" }
  | { tenantId: string | null; status: "refused_broken_chain"; brokenAtSeq: number };

/**
 * Retention for one log (a tenant's, or the tenantless one with null): deletes the content of integrated
 * events older than the retention period, except events of traces under an active legal hold. Their leaves
 * stay in the Merkle tree, so every checkpoint, inclusion and consistency proof still verifies; an
 * AuditPurge row tells the verifier which missing events are legitimately gone. A log that does not verify
 * is not purged (that would launder the tampering). The purge is itself an audit event of that log.
 * `asOf` lets tests and operators purge as of another instant.
 */
export async function purgeAuditEvents(tenantId: string | null, asOf: Date = new Date()): Promise<PurgeResult> {
  const days =
    tenantId === null
      ? TENANTLESS_RETENTION_DAYS
      : (await db().tenant.findUniqueOrThrow({ where: { id: tenantId }, select: { retentionDays: true } }))
          .retentionDays;
  const cutoff = new Date(asOf.getTime() - days * 86_400_000);
  const verdict = await verifyAuditChain(tenantId);
  if (!verdict.ok) return { tenantId, status: "refused_broken_chain", brokenAtSeq: verdict.brokenAtSeq };

  const sameLog = tenantId === null ? sql`e."tenantId" IS NULL` : sql`e."tenantId" = ${tenantId}::uuid`;
  const before = sql`e."occurredAt" < ${utc(cutoff)}`;
  const logId = logIdOf(tenantId);
  return transaction(async (tx) => {
    const [size] = (
      await sql<{
        n: number;
      }>`SELECT COALESCE(max("leafIndex") + 1, 0)::int AS n FROM "AuditLeaf" WHERE "logId" = ${logId}::uuid`.execute(
        sqlOf(tx),
      )
    ).rows;
    const treeSize = size?.n ?? 0;
    // The runtime role may not DELETE audit events: the owner's function deletes the content of this log's
    // integrated events (leaf below treeSize) older than the cutoff, active legal holds excepted
    // (prisma/migrations/*_transparency_log). A queued event waits for the sequencer.
    const [deleted] = (
      await sql<{ n: number }>`
      SELECT "audit_purge_content"(${logId}::uuid, ${utc(cutoff)}, ${treeSize}::int) AS n`.execute(sqlOf(tx))
    ).rows;
    const purged = deleted?.n ?? 0;
    if (purged === 0) return { tenantId, status: "nothing_to_purge" as const };
    const [h] = (
      await sql<{ n: number }>`SELECT count(*)::int AS n FROM "AuditEvent" e WHERE ${sameLog} AND ${before}`.execute(
        sqlOf(tx),
      )
    ).rows;
    const heldCount = h?.n ?? 0;
    await tx.auditPurge.create({ data: { logId, before: cutoff, treeSize, purgedCount: purged, heldCount } });
    await recordAuditEvent(sqlOf(tx), {
      tenantId,
      traceId: `audit-purge-${randomUUID()}`,
      actor: { type: "system", id: "retention" },
      action: "audit:purge",
      outcome: "ok",
      data: { purged, held: heldCount, cutoff: cutoff.toISOString() },
      redaction: { clear: ["purged", "held", "cutoff"] },
    });
    return { tenantId, status: "purged" as const, before: cutoff.toISOString(), purged, held: heldCount };
  });
}

/**
 * Drops the monthly AuditEvent partitions that ended before `before` and hold no row any more (every
 * tenant's retention emptied them and no legal hold keeps one). DDL, so it runs in the owner's
 * `audit_event_drop_empty_partitions` (SECURITY DEFINER). Returns the dropped partition names.
 */
export async function dropEmptyAuditPartitions(before: Date): Promise<string[]> {
  try {
    const rows = (
      await sql<{
        name: string;
      }>`SELECT "audit_event_drop_empty_partitions"(${before.toISOString().slice(0, 10)}::date) AS name`.execute(
        sqlPool(),
      )
    ).rows;
    return rows.map((r) => r.name);
  } catch (error) {
    log.warn({ component: "audit-retention", err: error }, "could not drop empty audit partitions");
    return [];
  }
}

/** The retention job: every tenant's log, the tenantless log, then the partitions left empty. */
export async function purgeAllAuditEvents(asOf: Date = new Date()): Promise<PurgeResult[]> {
  const tenants = await db().tenant.findMany({ select: { id: true, retentionDays: true } });
  const results: PurgeResult[] = [];
  for (const t of tenants) results.push(await purgeAuditEvents(t.id, asOf));
  results.push(await purgeAuditEvents(null, asOf));
  // Only months older than the longest retention: a younger partition may still fill (late rows never land
  // in an old month, but an empty month younger than some tenant's cutoff costs nothing to keep).
  const longest = Math.max(TENANTLESS_RETENTION_DAYS, ...tenants.map((t) => t.retentionDays));
  await dropEmptyAuditPartitions(new Date(asOf.getTime() - longest * 86_400_000));
  return results;
}
