import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import { AppError } from "@/lib/domain/outcome";
import { parseInput } from "@/lib/domain/validation";
import type { Actor } from "@/lib/server/auth/actor";
import { legalHoldInput, recordHoldEvent } from "./place-legal-hold";
import { transaction } from "@/lib/server/db/transaction";

/**
 * Releases an active legal hold of the actor's tenant (admins): the next retention purge may then drop the
 * trace's content (its leaves stay). A guarded write — only an active hold is released, once — and the
 * release is an audit event in the same transaction.
 */
export async function releaseLegalHold(actor: Actor, input: { traceId: string; reason: string }) {
  assertCan(actor.roles, "admin:manage");
  const { traceId, reason } = parseInput(legalHoldInput, input, "A trace id and a reason are required.");
  return transaction(async (tx) => {
    const released = await tx.auditLegalHold.updateMany({
      where: { tenantId: actor.tenantId, traceId, releasedAt: null },
      data: { releasedAt: new Date(), releasedById: actor.userId },
    });
    if (released.count !== 1) throw new AppError("not_found", "No active legal hold on this trace.");
    await recordHoldEvent(tx, actor, "audit:legal_hold_release", traceId, reason);
    return { traceId, released: true };
  });
}
