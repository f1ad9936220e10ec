import "server-only";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/server/db/client";
import { recordAuditEvent } from "./record-event";
import { verifyAuditChain } from "./verify-chain";

export type PurgeResult =
  | { tenantId: string; status: "purged"; throughSeq: number; purged: number; held: number }
  | { tenantId: string; status: "nothing_to_purge" }
  | { tenantId: string; status: "refused_broken_chain"; brokenAtSeq: number };

/**
 * Retention for one tenant: deletes the events older than `retentionDays` (a prefix of the chain, up to
 * the last seq S whose events are all older than the cutoff) except those of traces under a legal hold,
 * and records a checkpoint (S and its hash) so that what remains still verifies. A broken chain is not
 * purged (that would launder the tampering). The purge is itself an audit event. `asOf` lets tests and
 * operators purge as of another instant.
 */
export async function purgeAuditEvents(tenantId: string, asOf: Date = new Date()): Promise<PurgeResult> {
  const tenant = await db().tenant.findUniqueOrThrow({ where: { id: tenantId }, select: { retentionDays: true } });
  const cutoff = new Date(asOf.getTime() - tenant.retentionDays * 86_400_000);
  const verdict = await verifyAuditChain(tenantId);
  if (!verdict.ok) return { tenantId, status: "refused_broken_chain", brokenAtSeq: verdict.brokenAtSeq };

  return db().$transaction(async (tx) => {
    // The same lock the writer takes: the chain head does not move while the prefix is cut.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`audit-chain:${tenantId}`}, 0))`;
    const [bound] = await tx.$queryRaw<{ through: number | null }[]>`
      SELECT COALESCE(
        (SELECT min("seq") - 1 FROM "AuditEvent" WHERE "tenantId" = ${tenantId}::uuid AND "occurredAt" >= (${cutoff.toISOString()}::timestamptz AT TIME ZONE 'UTC')),
        (SELECT max("seq") FROM "AuditEvent" WHERE "tenantId" = ${tenantId}::uuid)) AS "through"`;
    const through = bound?.through ?? 0;
    const previous = await tx.auditCheckpoint.findFirst({ where: { tenantId }, orderBy: { lastSeq: "desc" } });
    if (through <= (previous?.lastSeq ?? 0)) return { tenantId, status: "nothing_to_purge" as const };
    const last = await tx.auditEvent.findUniqueOrThrow({ where: { tenantId_seq: { tenantId, seq: through } }, select: { hash: true } });

    // The runtime role may not DELETE audit events: the owner's function deletes the prefix, legal holds
    // excepted (prisma/migrations/20261130100000_least_privilege).
    const [deleted] = await tx.$queryRaw<{ n: number }[]>`SELECT "audit_purge_prefix"(${tenantId}::uuid, ${through}::int) AS n`;
    const purged = deleted?.n ?? 0;
    const [h] = await tx.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM "AuditEvent" WHERE "tenantId" = ${tenantId}::uuid AND "seq" <= ${through}`;
    const heldCount = h?.n ?? 0;
    await tx.auditCheckpoint.create({ data: { tenantId, lastSeq: through, lastHash: last.hash, purgedCount: purged, heldCount } });
    await recordAuditEvent(tx, {
      tenantId,
      traceId: `audit-purge-${randomUUID()}`,
      actor: { type: "system", id: "retention" },
      action: "audit:purge",
      outcome: "ok",
      data: { throughSeq: through, checkpointHash: last.hash, purged, held: heldCount, cutoff: cutoff.toISOString() },
      redaction: { clear: ["throughSeq", "checkpointHash", "purged", "held", "cutoff"] },
    });
    return { tenantId, status: "purged" as const, throughSeq: through, purged, held: heldCount };
  });
}

/** The retention job: every active tenant. */
export async function purgeAllAuditEvents(asOf: Date = new Date()): Promise<PurgeResult[]> {
  const tenants = await db().tenant.findMany({ select: { id: true } });
  const results: PurgeResult[] = [];
  for (const t of tenants) results.push(await purgeAuditEvents(t.id, asOf));
  return results;
}
