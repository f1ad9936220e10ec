import "server-only";
import { z } from "zod";
import { assertCan } from "@/lib/domain/permissions";
import { parseInput } from "@/lib/domain/validation";
import { AppError } from "@/lib/domain/outcome";
import type { Actor } from "@/lib/server/auth/actor";
import { type Tx } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { recordStaffEvent } from "./record-event";
import { transaction } from "@/lib/server/db/transaction";

export const legalHoldInput = z.object({
  traceId: z.string().trim().min(1).max(128),
  reason: z.string().trim().min(3).max(500),
});
export type LegalHoldInput = z.infer<typeof legalHoldInput>;

/** Puts a trace of the actor's tenant under legal hold (admins): retention purges skip its events. */
export async function placeLegalHold(actor: Actor, input: LegalHoldInput) {
  assertCan(actor.roles, "admin:manage");
  const { traceId, reason } = parseInput(legalHoldInput, input, "A trace id and a reason are required.");
  return transaction(async (tx) => {
    const exists = await tx.auditEvent.findFirst({
      where: { tenantId: actor.tenantId, traceId },
      select: { id: true },
    });
    if (!exists) throw new AppError("not_found", "No such trace.");
    const hold = await tx.auditLegalHold.upsert({
      where: { tenantId_traceId: { tenantId: actor.tenantId, traceId } },
      create: { tenantId: actor.tenantId, traceId, reason, createdById: actor.userId },
      // Placing a released hold again makes it active again.
      update: { releasedAt: null, releasedById: null, reason, createdById: actor.userId },
    });
    await recordHoldEvent(tx, actor, "audit:legal_hold", traceId, reason);
    return hold;
  });
}

/** The audit event of placing or releasing a hold, in the held trace (the trace id and the reason stay readable). */
export function recordHoldEvent(
  tx: Tx,
  actor: Actor,
  action: "audit:legal_hold" | "audit:legal_hold_release",
  traceId: string,
  reason: string,
) {
  return recordStaffEvent(sqlOf(tx), actor, {
    traceId,
    action,
    outcome: "ok",
    data: { traceId, reason },
    redaction: { clear: ["traceId"] },
  });
}
