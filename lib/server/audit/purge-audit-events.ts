import "server-only";
import { randomUUID } from "node:crypto";
import { Prisma } from "@/lib/server/db/generated/client";
import { logIdOf } from "@/lib/domain/audit-log";
import { db } from "@/lib/server/db/client";
import { log } from "@/lib/server/log";
import { recordAuditEvent } from "./record-event";
import { verifyAuditChain } from "./verify-chain";

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
  const days = tenantId === null
    ? TENANTLESS_RETENTION_DAYS
    : (await db().tenant.findUniqueOrThrow({ where: { id: tenantId }, select: { retentionDays: true } })).retentionDays;
  const cutoff = new Date(asOf.getTime() - days * 86_400_000);
  const verdict = await verifyAuditChain(tenantId);
  if (!verdict.ok) return { tenantId, status: "refused_broken_chain", brokenAtSeq: verdict.brokenAtSeq };

  const sameLog = tenantId === null ? Prisma.sql`e."tenantId" IS NULL` : Prisma.sql`e."tenantId" = ${tenantId}::uuid`;
  const held = tenantId === null
    ? Prisma.sql`FALSE`
    : Prisma.sql`e."traceId" IN (SELECT "traceId" FROM "AuditLegalHold" WHERE "tenantId" = ${tenantId}::uuid AND "releasedAt" IS NULL)`;
  const before = Prisma.sql`e."occurredAt" < (${cutoff.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
  const logId = logIdOf(tenantId);
  return db().$transaction(async (tx) => {
    const [size] = await tx.$queryRaw<{ n: number }[]>`SELECT COALESCE(max("leafIndex") + 1, 0)::int AS n FROM "AuditLeaf" WHERE "logId" = ${logId}::uuid`;
    const treeSize = size?.n ?? 0;
    await tx.$executeRaw`SELECT set_config('app.audit_purge', 'on', true)`;
    // Only events already in the tree (their leaf hash stays); a queued one waits for the sequencer.
    const purged = await tx.$executeRaw`
      DELETE FROM "AuditEvent" e WHERE ${sameLog} AND ${before} AND NOT (${held})
         AND EXISTS (SELECT 1 FROM "AuditLeaf" l WHERE l."eventId" = e."id" AND l."leafIndex" < ${treeSize})`;
    await tx.$executeRaw`SELECT set_config('app.audit_purge', 'off', true)`;
    if (purged === 0) return { tenantId, status: "nothing_to_purge" as const };
    const [h] = await tx.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM "AuditEvent" e WHERE ${sameLog} AND ${before}`;
    const heldCount = h?.n ?? 0;
    await tx.auditPurge.create({ data: { logId, before: cutoff, treeSize, purgedCount: purged, heldCount } });
    await recordAuditEvent(tx, {
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
 * tenant's retention emptied them and no legal hold keeps one). Returns the dropped partition names.
 */
export async function dropEmptyAuditPartitions(before: Date): Promise<string[]> {
  const parts = await db().$queryRaw<{ name: string; upper: string }[]>`
    SELECT c.relname AS name, substring(pg_get_expr(c.relpartbound, c.oid) from 'TO \\(''([^'']+)''\\)') AS upper
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = '"AuditEvent"'::regclass AND c.relname ~ '^AuditEvent_[0-9]{4}_[0-9]{2}$'`;
  const dropped: string[] = [];
  for (const p of parts) {
    if (!p.upper || new Date(`${p.upper.slice(0, 10)}T00:00:00Z`) > before) continue;
    try {
      await db().$transaction(async (tx) => {
        const [row] = await tx.$queryRawUnsafe<{ any: boolean }[]>(`SELECT EXISTS (SELECT 1 FROM "${p.name}") AS any`);
        if (row?.any) return;
        await tx.$executeRawUnsafe(`ALTER TABLE "AuditEvent" DETACH PARTITION "${p.name}"`);
        await tx.$executeRawUnsafe(`DROP TABLE "${p.name}"`);
        dropped.push(p.name);
      });
    } catch (error) {
      // E.g. a least-privilege role that may not drop tables: the partition stays, empty.
      log.warn({ component: "audit-retention", partition: p.name, err: error }, "could not drop an empty audit partition");
    }
  }
  return dropped;
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
