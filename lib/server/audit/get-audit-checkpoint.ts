import "server-only";
import { z } from "zod";
import { assertCan } from "@/lib/domain/permissions";
import { AppError } from "@/lib/domain/outcome";
import type { SignedCheckpoint } from "@/lib/domain/audit-log";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { latestCheckpoint, proveConsistency, toSignedCheckpoint } from "./tree-store";

export const auditCheckpointInput = z.object({
  /** An earlier checkpoint's size the caller holds: the answer adds the consistency proof from it. */
  consistencyFrom: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 31 - 1)
    .optional(),
});

export type AuditCheckpointAnswer = {
  checkpoint: SignedCheckpoint | null;
  consistency: { from: SignedCheckpoint; proof: string[] } | null;
};

/**
 * The newest signed checkpoint of the actor's tenant log (auditors, admins), and — given the size of an
 * earlier checkpoint the auditor kept — the RFC 9162 consistency proof that the log only grew since.
 * Read-only over signed, non-personal data, so it is not itself recorded (auditors may poll it).
 */
export async function getAuditCheckpoint(
  actor: Actor,
  input: { consistencyFrom?: unknown },
): Promise<AuditCheckpointAnswer> {
  assertCan(actor.roles, "audit:read");
  const parsed = auditCheckpointInput.safeParse(input);
  if (!parsed.success)
    throw new AppError("invalid_arguments", "consistencyFrom must be the size of an earlier checkpoint.");
  const logId = actor.tenantId;
  const checkpoint = await latestCheckpoint(db(), logId);
  const from = parsed.data.consistencyFrom;
  if (from === undefined || !checkpoint) return { checkpoint, consistency: null };
  const earlier = await db().auditSignedCheckpoint.findUnique({ where: { logId_treeSize: { logId, treeSize: from } } });
  if (!earlier || from > checkpoint.treeSize)
    throw new AppError("not_found", "No checkpoint of that size in this log.");
  return {
    checkpoint,
    consistency: {
      from: toSignedCheckpoint(earlier),
      proof: await proveConsistency(sqlPool(), logId, from, checkpoint.treeSize),
    },
  };
}
