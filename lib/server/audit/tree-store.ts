import "server-only";
import {
  consistencyProof,
  getterOf,
  inclusionProof,
  neededNodes,
  type NodeGetter,
  type NodeRef,
  type StoredNode,
} from "@/lib/domain/merkle";
import type { SignedCheckpoint } from "@/lib/domain/audit-log";
import type { Tx } from "@/lib/server/db/client";
import { sql, type Sql } from "@/lib/server/db/sql";

/**
 * Fetches stored perfect-subtree hashes of a log in one query (level 0 from AuditLeaf): for proofs, and for the
 * sequencer's frontier and its consistency check before signing (lib/server/audit/sequencer.ts).
 */
export async function loadNodes(s: Sql, logId: string, refs: readonly NodeRef[]): Promise<StoredNode[]> {
  if (refs.length === 0) return [];
  const leaves = refs.filter((x) => x.level === 0).map((x) => x.index);
  const inner = refs.filter((x) => x.level > 0);
  const { rows } = await sql<StoredNode>`
    SELECT 0 AS level, "leafIndex" AS index, "leafHash" AS hash FROM "AuditLeaf" WHERE "logId" = ${logId}::uuid AND "leafIndex" = ANY(${leaves}::int[])
    UNION ALL
    SELECT "level", "index", "hash" FROM "AuditTreeNode"
     WHERE "logId" = ${logId}::uuid AND ("level", "index") IN (SELECT * FROM unnest(${inner.map((x) => x.level)}::int[], ${inner.map((x) => x.index)}::int[]))`.execute(
    s,
  );
  return rows;
}

/** Runs a proof computation over stored nodes: finds what it reads, fetches it, runs it. */
export async function withNodes<T>(s: Sql, logId: string, run: (get: NodeGetter) => T): Promise<T> {
  return run(getterOf(await loadNodes(s, logId, neededNodes(run))));
}

export const proveInclusion = (s: Sql, logId: string, leafIndex: number, treeSize: number) =>
  withNodes(s, logId, (g) => inclusionProof(leafIndex, treeSize, g));
export const proveConsistency = (s: Sql, logId: string, first: number, second: number) =>
  withNodes(s, logId, (g) => consistencyProof(first, second, g));

type CheckpointRow = {
  logId: string;
  treeSize: number;
  rootHash: string;
  issuedAt: Date;
  keyId: string;
  signature: string;
};
export const toSignedCheckpoint = (c: CheckpointRow): SignedCheckpoint => ({
  logId: c.logId,
  treeSize: c.treeSize,
  rootHash: c.rootHash,
  issuedAt: c.issuedAt.toISOString(),
  keyId: c.keyId,
  signature: c.signature,
});

/** The newest signed checkpoint of a log (null before its first batch). */
export async function latestCheckpoint(r: Tx, logId: string): Promise<SignedCheckpoint | null> {
  const c = await r.auditSignedCheckpoint.findFirst({ where: { logId }, orderBy: { treeSize: "desc" } });
  return c ? toSignedCheckpoint(c) : null;
}
