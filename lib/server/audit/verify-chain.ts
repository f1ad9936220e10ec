import "server-only";
import { sql } from "@/lib/server/db/sql";
import { verifyLog, logIdOf, type AuditContent, type LeafRow, type LogVerification } from "@/lib/domain/audit-log";
import { verifyConsistency } from "@/lib/domain/merkle";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { auditRetiredKeys, auditSigningKey } from "./signing-key";
import { proveConsistency, toSignedCheckpoint } from "./tree-store";
import { signedHistoryProblems } from "./check-signed-history";

export type ChainVerification =
  | { ok: true; events: number; checkpoints: number; pending: number; purged: number; signedByRetired: string[] }
  | { ok: false; events: number; brokenAtSeq: number; eventId: string | null; problem: string };

const PAGE = 5_000;
/** Consecutive checkpoint pairs whose consistency proof (built from the stored nodes) is re-checked. */
const PROOF_PAIRS = 64;

/** A leaf LEFT JOINed to its event: the event's columns are null where its row is gone (purged or deleted). */
type Row = { leafIndex: number; leafHash: string; eventId: string; leafOccurredAt: Date; hash: string } & Omit<
  AuditContent,
  "id" | "occurredAt" | "fingerprints"
> & { id: string | null; occurredAt: Date | null; fingerprints: string[] | null };

async function* leavesOf(logId: string): AsyncGenerator<LeafRow> {
  for (let from = 0; ; from += PAGE) {
    // The join names the partition key too, so each lookup prunes to one monthly partition.
    const rows = (
      await sql<Row>`
      SELECT l."leafIndex", l."leafHash", l."eventId", l."occurredAt" AS "leafOccurredAt", e.*
        FROM "AuditLeaf" l LEFT JOIN "AuditEvent" e ON e."id" = l."eventId" AND e."occurredAt" = l."occurredAt"
       WHERE l."logId" = ${logId}::uuid AND l."leafIndex" >= ${from} AND l."leafIndex" < ${from + PAGE}
       ORDER BY l."leafIndex"`.execute(sqlPool())
    ).rows;
    for (const r of rows)
      yield {
        leafIndex: r.leafIndex,
        leafHash: r.leafHash,
        eventId: r.eventId,
        occurredAt: r.leafOccurredAt,
        event: r.id === null ? null : { ...r, id: r.id, occurredAt: r.occurredAt!, fingerprints: r.fingerprints ?? [] },
      };
    if (rows.length < PAGE) return;
  }
}

/**
 * Verifies one log (a tenant's, or the tenantless one with null): recomputes its Merkle tree from the
 * leaves, checks every event's content against its leaf, every signed checkpoint's signature and root
 * (so consecutive checkpoints are consistent: one append-only history), re-checks the consistency proofs
 * the server would hand out between the newest checkpoints, and finds events outside the tree. Names the
 * first leaf whose content no longer matches (`brokenAtSeq` is its leaf index).
 */
export async function verifyAuditChain(tenantId: string | null): Promise<ChainVerification> {
  const logId = logIdOf(tenantId);
  const checkpoints = (
    await db().auditSignedCheckpoint.findMany({ where: { logId }, orderBy: { treeSize: "asc" } })
  ).map(toSignedCheckpoint);
  const purges = await db().auditPurge.findMany({ where: { logId }, select: { before: true, treeSize: true } });
  const sameLog = tenantId === null ? sql`e."tenantId" IS NULL` : sql`e."tenantId" = ${tenantId}::uuid`;
  const orphans = (
    await sql<{ id: string }>`
    SELECT e."id" FROM "AuditEvent" e WHERE ${sameLog}
       AND NOT EXISTS (SELECT 1 FROM "AuditLeaf" l WHERE l."eventId" = e."id")
       AND NOT EXISTS (SELECT 1 FROM "AuditPending" p WHERE p."eventId" = e."id") LIMIT 1`.execute(sqlPool())
  ).rows;
  const v: LogVerification = await verifyLog({
    leaves: leavesOf(logId),
    checkpoints,
    publicKey: auditSigningKey().publicKey,
    retiredKeys: auditRetiredKeys(),
    // A purge covers an event older than its cutoff that was already in the tree when it ran.
    purgedBefore: (at, leafIndex) => purges.some((p) => at < p.before && leafIndex < p.treeSize),
    orphans,
  });
  if (!v.ok) return { ok: false, events: v.leaves, brokenAtSeq: v.brokenAtSeq, eventId: v.eventId, problem: v.problem };
  // What remains can be a consistent, smaller log: only the signer's own memory shows a removed tail.
  const [lost] = await signedHistoryProblems([logId]);
  if (lost) return { ok: false, events: v.leaves, brokenAtSeq: v.leaves, eventId: null, problem: lost.problem };

  const recent = checkpoints.slice(-PROOF_PAIRS - 1);
  for (let i = 1; i < recent.length; i++) {
    const a = recent[i - 1]!;
    const b = recent[i]!;
    const proof = await proveConsistency(sqlPool(), logId, a.treeSize, b.treeSize);
    if (!verifyConsistency(a.treeSize, b.treeSize, a.rootHash, b.rootHash, proof))
      return {
        ok: false,
        events: v.leaves,
        brokenAtSeq: b.treeSize - 1,
        eventId: null,
        problem: `stored tree nodes give no valid consistency proof from size ${a.treeSize} to ${b.treeSize}`,
      };
  }
  const pending = await db().auditPending.count({ where: { logId } });
  return {
    ok: true,
    events: v.leaves,
    checkpoints: v.checkpoints,
    pending,
    purged: v.purged,
    signedByRetired: v.signedByRetired ?? [],
  };
}
