import "server-only";
import { db } from "@/lib/server/db/client";
import { dummyPasswordHash, verifyPassword } from "@/lib/server/auth/password";
import { clearPasswordFailures, reservePasswordAttempt } from "@/lib/server/auth/verify-credentials";

export type StepUpPasswordCheck = { ok: true; at: Date } | { ok: false; reason: "bad_password" | "locked" };

/**
 * A reviewer re-enters their password to approve (step-up). Same rules as sign-in: the attempt is reserved
 * before the check (reservePasswordAttempt: a paused account is refused whatever the password, without
 * evaluating it), it counts toward the same lockout, and a right password clears the counter. Called before any proposal lock is taken, so guessing costs an argon2 verification and a
 * counter update, never a held lock.
 */
export async function verifyStepUpPassword(userId: string, password: string): Promise<StepUpPasswordCheck> {
  const user = await db().staffUser.findUnique({ where: { id: userId }, select: { passwordHash: true } });
  if (!user?.passwordHash) return { ok: false, reason: "bad_password" };
  if (!(await reservePasswordAttempt(userId))) {
    await verifyPassword(await dummyPasswordHash(), password);
    return { ok: false, reason: "locked" };
  }
  if (!(await verifyPassword(user.passwordHash, password))) return { ok: false, reason: "bad_password" };
  await clearPasswordFailures(userId);
  return { ok: true, at: new Date() };
}
