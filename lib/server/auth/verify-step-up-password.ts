import "server-only";
import { db } from "@/lib/server/db/client";
import { verifyPassword } from "@/lib/server/auth/password";
import { recordPasswordFailure } from "@/lib/server/auth/verify-credentials";

export type StepUpPasswordCheck = { ok: true; at: Date } | { ok: false; reason: "bad_password" | "locked" };

/**
 * A reviewer re-enters their password to approve (step-up). Same rules as sign-in: a locked account is
 * refused whatever the password, a wrong password counts toward the same lockout, a right one resets the
 * counter. Called before any proposal lock is taken, so guessing costs an argon2 verification and a
 * counter update, never a held lock.
 */
export async function verifyStepUpPassword(userId: string, password: string): Promise<StepUpPasswordCheck> {
  const user = await db().staffUser.findUnique({ where: { id: userId }, select: { passwordHash: true, lockedUntil: true } });
  if (!user?.passwordHash) return { ok: false, reason: "bad_password" };
  const passwordOk = await verifyPassword(user.passwordHash, password);
  if (user.lockedUntil && user.lockedUntil > new Date()) return { ok: false, reason: "locked" };
  if (!passwordOk) {
    await recordPasswordFailure(userId);
    return { ok: false, reason: "bad_password" };
  }
  await db().staffUser.updateMany({ where: { id: userId, failedLoginCount: { gt: 0 } }, data: { failedLoginCount: 0 } });
  return { ok: true, at: new Date() };
}
