import "server-only";
import { db, type Tx } from "@/lib/server/db/client";
import type { Actor } from "@/lib/server/auth/actor";

/**
 * A successful step-up (password or passkey) renews the step-up window of the session it happened in, so
 * the next sensitive action within the tenant's window does not ask again. Only this session's row, and
 * only if it belongs to this person: a forged or foreign `sid` renews nothing. Pass the transaction of
 * the action the step-up was for, so the renewal commits with it (a refused approval renews nothing).
 */
export async function renewStepUp(
  actor: Actor,
  method: "password" | "passkey",
  at: Date,
  tx: Tx = db(),
): Promise<void> {
  if (!actor.sessionId) return;
  await tx.staffSession.updateMany({
    where: { id: actor.sessionId, staffUserId: actor.userId, tenantId: actor.tenantId },
    data: { stepUpAt: at, stepUpMethod: method },
  });
}
