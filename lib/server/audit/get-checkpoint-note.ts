import "server-only";
import { sql } from "@/lib/server/db/sql";
import { z } from "zod";
import { AppError } from "@/lib/domain/outcome";
import { checkpointText } from "@/lib/domain/signed-note";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";

export const logIdParam = z.uuid({ error: "a log id is a UUID" });
const countParam = (min: number) =>
  z.preprocess(
    (v) => (typeof v === "string" && /^\d{1,10}$/.test(v) ? Number(v) : v),
    z
      .number()
      .int()
      .min(min)
      .max(2 ** 31 - 1),
  );

export function parseLogId(raw: unknown): string {
  const r = logIdParam.safeParse(raw);
  if (!r.success) throw new AppError("not_found", "No such log.");
  return r.data;
}

/** A tree size (from 1), or with `min` 0 an index or an old size. */
export function parseSize(raw: unknown, name: string, min = 1): number {
  const r = countParam(min).safeParse(raw);
  if (!r.success)
    throw new AppError("invalid_arguments", `${name} must be a whole number from ${min}.`, { field: name });
  return r.data;
}

/**
 * A log's checkpoint as a C2SP signed note (c2sp.org/tlog-checkpoint): the newest one, or the one of size
 * `size`; the log's signature line(s) followed by every witness cosignature stored for it. Public: it holds
 * only the origin, a size and a root. Checkpoints signed before the witnessed-log migration have no note.
 */
export async function getCheckpointNote(
  rawLogId: unknown,
  rawSize?: unknown,
  opts: {
    cosignatures?: boolean;
    /** only the cosignatures of the tenant's current witnesses */ currentWitnesses?: boolean;
  } = {},
): Promise<string> {
  const logId = parseLogId(rawLogId);
  const size = rawSize === undefined || rawSize === null ? undefined : parseSize(rawSize, "size");
  const cp = await db().auditSignedCheckpoint.findFirst({
    where: { logId, noteSignatures: { not: null }, ...(size === undefined ? {} : { treeSize: size }) },
    orderBy: { treeSize: "desc" },
  });
  if (!cp)
    throw new AppError(
      "not_found",
      size === undefined ? "This log has no C2SP checkpoint yet." : "No C2SP checkpoint of that size in this log.",
    );
  const cosignatures =
    opts.cosignatures === false
      ? []
      : await db().auditCosignature.findMany({
          where: {
            logId,
            treeSize: cp.treeSize,
            ...(opts.currentWitnesses
              ? {
                  witness: {
                    in: (await db().auditWitness.findMany({ where: { tenantId: logId }, select: { name: true } })).map(
                      (w) => w.name,
                    ),
                  },
                }
              : {}),
          },
          orderBy: { witness: "asc" },
          select: { line: true },
        });
  return `${checkpointText({ origin: cp.origin!, treeSize: cp.treeSize, rootHash: cp.rootHash })}\n${cp.noteSignatures}${cosignatures.map((c) => c.line).join("")}`;
}

const CANDIDATES = 256;

/**
 * The checkpoint an evidence pack should lead to: of the C2SP checkpoints of size ≥ `minSize` (covering the
 * pack's events; the newest 256), the newest with the most cosignatures of the tenant's current witnesses, counted up to
 * `quorum` (so a newer checkpoint that meets the quorum wins over an older one that has more). Null when
 * the log has no C2SP checkpoint that large.
 */
export async function witnessedCheckpointFor(
  logId: string,
  minSize: number,
  quorum: number,
): Promise<{ treeSize: number; cosigned: number } | null> {
  // Only the newest checkpoints are candidates (each covers every older event): a bounded backward scan of the
  // primary key, however long the log.
  const rows = (
    await sql<{ treeSize: number; cosigned: number }>`
    SELECT c."treeSize", count(a."witness")::int AS cosigned
      FROM (SELECT "logId", "treeSize" FROM "AuditSignedCheckpoint"
             WHERE "logId" = ${logId}::uuid AND "treeSize" >= ${minSize} AND "noteSignatures" IS NOT NULL
             ORDER BY "treeSize" DESC LIMIT ${CANDIDATES}) c
      LEFT JOIN "AuditCosignature" a ON a."logId" = c."logId" AND a."treeSize" = c."treeSize"
            AND a."witness" IN (SELECT w."name" FROM "AuditWitness" w WHERE w."tenantId" = ${logId}::uuid)
     GROUP BY c."treeSize"
     ORDER BY least(count(a."witness"), ${quorum}::int) DESC, c."treeSize" DESC
     LIMIT 1`.execute(sqlPool())
  ).rows;
  return rows[0] ?? null;
}
