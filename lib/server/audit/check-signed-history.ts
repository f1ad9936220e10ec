import "server-only";
import { sql } from "@/lib/server/db/sql";
import { divergenceFrom } from "@/lib/domain/audit-log";
import { log } from "@/lib/server/log";
import { readDatabaseIdentity, readSignedHead, readSignedHeads } from "./signer-state";
import { sqlPool } from "@/lib/server/db/pg";

export type SignedHistoryProblem = { logId: string; problem: string };

const identity = () => readDatabaseIdentity(sqlPool());

/**
 * Compares the database with what the signer remembers having signed (lib/server/audit/signer-state.ts):
 * for each log, the signed size must still be there — as many leaves, and the checkpoint of that size with
 * the same root. A tail deleted together with its leaves, nodes and checkpoints (which the database alone
 * cannot see: what remains is a consistent, smaller log) shows here as tampering. `logIds` limits the check;
 * without it every log the signer remembers is checked. Empty when the signer has no memory on this machine.
 */
export async function signedHistoryProblems(logIds?: readonly string[]): Promise<SignedHistoryProblem[]> {
  const id = await identity();
  const heads = logIds
    ? new Map(logIds.flatMap((l) => ((h) => (h ? [[l, h] as const] : []))(readSignedHead(id, l))))
    : readSignedHeads(id);
  if (heads.size === 0) return [];
  const logs = [...heads.keys()];
  const [sizes, signed] = await Promise.all([
    sql<{ logId: string; size: number }>`
      SELECT l AS "logId", COALESCE((SELECT max("leafIndex") + 1 FROM "AuditLeaf" WHERE "logId" = l), 0)::int AS size
        FROM unnest(${logs}::uuid[]) AS l`
      .execute(sqlPool())
      .then((r) => r.rows),
    sql<{ logId: string; treeSize: number; rootHash: string }>`
      SELECT c."logId", c."treeSize", c."rootHash" FROM "AuditSignedCheckpoint" c
        JOIN unnest(${logs}::uuid[], ${logs.map((l) => heads.get(l)!.treeSize)}::int[]) AS k("logId", "treeSize")
          ON c."logId" = k."logId" AND c."treeSize" = k."treeSize"`
      .execute(sqlPool())
      .then((r) => r.rows),
  ]);
  const problems: SignedHistoryProblem[] = [];
  for (const [logId, kept] of heads) {
    const size = sizes.find((s) => s.logId === logId)?.size ?? 0;
    const cp = signed.find((c) => c.logId === logId);
    const problem =
      size < kept.treeSize
        ? divergenceFrom(kept, { treeSize: size, rootHash: "" }, null)
        : !cp
          ? `the signed checkpoint of size ${kept.treeSize} was deleted`
          : divergenceFrom(kept, cp, null);
    if (problem) problems.push({ logId, problem: `tampering: ${problem}` });
  }
  return problems;
}

export type SignedHistoryHealth = "ok" | "tampered" | "unknown";

/** For /api/health: "tampered" when a log lost what its signer signed, "unknown" when this machine keeps no memory. */
export async function checkSignedHistory(): Promise<SignedHistoryHealth> {
  try {
    if (readSignedHeads(await identity()).size === 0) return "unknown";
    return (await signedHistoryProblems()).length > 0 ? "tampered" : "ok";
  } catch (error) {
    log.error(
      { err: error instanceof Error ? error.message : String(error) },
      "health: cannot compare the audit log with the signer's memory",
    );
    return "unknown";
  }
}

export type WitnessHealth = "ok" | "refusing" | "stale" | "none";
/** A witness counts as stale when the log signed something more than this long ago that it has not cosigned. */
const WITNESS_STALE_MS = 10 * 60_000;

/**
 * For /api/health: "refusing" when a witness's last answer was a refusal (or no answer), "stale" when a
 * witness has not cosigned a checkpoint signed more than ten minutes ago, "none" when no tenant has witnesses.
 */
export async function checkWitnesses(): Promise<WitnessHealth> {
  const rows = (
    await sql<{ refusing: number; stale: number; total: number }>`
    SELECT count(*) FILTER (WHERE w."lastError" IS NOT NULL)::int AS refusing,
           count(*) FILTER (WHERE EXISTS (
             SELECT 1 FROM "AuditSignedCheckpoint" c
              WHERE c."logId" = w."tenantId" AND c."treeSize" > COALESCE(w."cosignedSize", 0) AND c."noteSignatures" IS NOT NULL
                AND c."issuedAt" < ${new Date(Date.now() - WITNESS_STALE_MS)}))::int AS stale,
           count(*)::int AS total
      FROM "AuditWitness" w`.execute(sqlPool())
  ).rows;
  const r = rows[0]!;
  return r.total === 0 ? "none" : r.refusing > 0 ? "refusing" : r.stale > 0 ? "stale" : "ok";
}

/** Everything /api/health says about the audit log beyond the stored verification. */
export async function checkAuditLogHealth(): Promise<{
  signedHistory: SignedHistoryHealth;
  witnesses: WitnessHealth | "unknown";
}> {
  const signedHistory = await checkSignedHistory();
  const witnesses = await checkWitnesses().catch(() => "unknown" as const);
  return { signedHistory, witnesses };
}
