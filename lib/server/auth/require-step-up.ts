import "server-only";
import { sql } from "@/lib/server/db/sql";
import { AppError } from "@/lib/domain/outcome";
import { isAuthFresh, stepUpClock } from "@/lib/domain/step-up";
import { renewStepUp } from "@/lib/server/auth/renew-step-up";
import { db } from "@/lib/server/db/client";
import { verifyPassword } from "@/lib/server/auth/password";
import { LOCKOUT_THRESHOLD } from "@/lib/server/auth/verify-credentials";
import type { Actor } from "@/lib/server/auth/actor";
import { sqlPool } from "@/lib/server/db/pg";

/**
 * Step-up for sensitive changes: the actor's sign-in must be younger than the tenant's step-up window,
 * or the actor re-enters their password. A wrong password counts toward the account lockout like a
 * wrong sign-in (so step-up cannot be used to guess passwords without limit); a locked account fails.
 * A right password renews this session's step-up window (lib/server/auth/renew-step-up.ts).
 */
export async function requireStepUp(actor: Actor, password: string | undefined, now = new Date()): Promise<void> {
  if (isAuthFresh(stepUpClock(actor), actor.stepUpMinutes, now)) return;
  if (!password) {
    throw new AppError(
      "permission_denied",
      `Confirm it is you: your sign-in is older than ${actor.stepUpMinutes} minutes.`,
      { reason: "step_up_required" },
    );
  }
  const user = await db().staffUser.findFirst({
    where: { id: actor.userId, tenantId: actor.tenantId },
    select: { passwordHash: true, lockedUntil: true },
  });
  if (user?.lockedUntil && user.lockedUntil > now)
    throw new AppError("permission_denied", "Your account is paused after too many wrong passwords.", {
      reason: "locked",
    });
  if (!user?.passwordHash || !(await verifyPassword(user.passwordHash, password))) {
    await sql`
      UPDATE "StaffUser"
         SET "failedLoginCount" = "failedLoginCount" + 1,
             "lockedUntil" = CASE WHEN "failedLoginCount" + 1 >= ${LOCKOUT_THRESHOLD}
                                  THEN now() + make_interval(mins => LEAST(60, power(2, "failedLoginCount" + 2 - ${LOCKOUT_THRESHOLD})::int))
                                  ELSE "lockedUntil" END
       WHERE id = ${actor.userId}::uuid`.execute(sqlPool());
    throw new AppError("permission_denied", "That password is not correct.", { reason: "step_up_failed" });
  }
  await renewStepUp(actor, "password", now);
}
