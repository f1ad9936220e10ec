import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { latestCheckpoint, proveConsistency, proveInclusion } from "./tree-store";
import { parseLogId, parseSize } from "./get-checkpoint-note";

const b64 = (hex: string) => Buffer.from(hex, "hex").toString("base64");

async function signedSize(logId: string): Promise<number> {
  return (await latestCheckpoint(db(), logId))?.treeSize ?? 0;
}

/**
 * The RFC 9162 consistency proof between two sizes of a log, up to its newest signed size, as base64 hashes
 * (one per line, the body format of tlog-witness's add-checkpoint): for monitors and witnesses. Public.
 */
export async function getConsistencyProof(rawLogId: unknown, rawFrom: unknown, rawTo: unknown): Promise<string[]> {
  const logId = parseLogId(rawLogId);
  const from = parseSize(rawFrom, "from", 0);
  const to = parseSize(rawTo, "to");
  if (from > to) throw new AppError("invalid_arguments", "from must not be larger than to.", { field: "from" });
  if (to > (await signedSize(logId)))
    throw new AppError("not_found", "The log has no signed checkpoint of that size yet.");
  return (await proveConsistency(sqlPool(), logId, from, to)).map(b64);
}

/** The leaf hash at `index` and its inclusion proof in the tree of `size` (≤ the newest signed size). Public. */
export async function getInclusionProof(
  rawLogId: unknown,
  rawIndex: unknown,
  rawSize: unknown,
): Promise<{ leafIndex: number; treeSize: number; leafHash: string; proof: string[] }> {
  const logId = parseLogId(rawLogId);
  const size = parseSize(rawSize, "size");
  const index = parseSize(rawIndex, "index", 0);
  if (index >= size) throw new AppError("invalid_arguments", "index must be below size.", { field: "index" });
  if (size > (await signedSize(logId)))
    throw new AppError("not_found", "The log has no signed checkpoint of that size yet.");
  const leaf = await db().auditLeaf.findUnique({
    where: { logId_leafIndex: { logId, leafIndex: index } },
    select: { leafHash: true },
  });
  if (!leaf) throw new AppError("not_found", "No such leaf.");
  return {
    leafIndex: index,
    treeSize: size,
    leafHash: b64(leaf.leafHash),
    proof: (await proveInclusion(sqlPool(), logId, index, size)).map(b64),
  };
}
