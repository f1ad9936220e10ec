import "server-only";
import { db } from "@/lib/server/db/client";
import { dummyPasswordHash, verifyPassword } from "@/lib/server/auth/password";

export const LOCKOUT_THRESHOLD = 5;
const MAX_LOCK_MINUTES = 60;

/**
 * One more consecutive wrong password for this account (sign-in or an approval's step-up: one counter,
 * one lockout). Atomic, so parallel guesses cannot slip past the threshold.
 */
export async function recordPasswordFailure(userId: string): Promise<void> {
  await db().$executeRaw`
    UPDATE "StaffUser"
       SET "failedLoginCount" = "failedLoginCount" + 1,
           "lockedUntil" = CASE WHEN "failedLoginCount" + 1 >= ${LOCKOUT_THRESHOLD}
                                THEN now() + make_interval(mins => LEAST(${MAX_LOCK_MINUTES}, power(2, "failedLoginCount" + 2 - ${LOCKOUT_THRESHOLD})::int))
                                ELSE "lockedUntil" END
     WHERE id = ${userId}::uuid`;
}

export type CredentialCheck =
  | { ok: true; user: { id: string; tenantId: string; email: string; name: string; roles: string[]; locale: string; sessionVersion: number } }
  | { ok: false; reason: "unknown_user" | "bad_password" | "locked" | "disabled"; userId?: string; tenantId?: string };

/**
 * Checks an email and password. Every path verifies one argon2id hash, so an unknown email costs
 * the same time as a wrong password. After LOCKOUT_THRESHOLD consecutive failures the account is
 * paused (2, 4, 8 … up to 60 minutes); the counter moves in one atomic UPDATE, so parallel
 * guesses cannot slip past it.
 */
export async function verifyCredentials(emailInput: string, password: string): Promise<CredentialCheck> {
  const email = emailInput.trim().toLowerCase();
  const user = email ? await db().staffUser.findUnique({ where: { email }, include: { tenant: { select: { locale: true, active: true } } } }) : null;
  if (!user || !user.passwordHash) {
    await verifyPassword(await dummyPasswordHash(), password);
    return { ok: false, reason: "unknown_user" };
  }
  const passwordOk = await verifyPassword(user.passwordHash, password);
  const who = { userId: user.id, tenantId: user.tenantId };
  if (user.lockedUntil && user.lockedUntil > new Date()) return { ok: false, reason: "locked", ...who };
  if (user.disabled || !user.tenant.active) return { ok: false, reason: "disabled", ...who };
  if (!passwordOk) {
    await recordPasswordFailure(user.id);
    return { ok: false, reason: "bad_password", ...who };
  }
  await db().staffUser.update({ where: { id: user.id }, data: { failedLoginCount: 0, lockedUntil: null, lastLoginAt: new Date() } });
  return {
    ok: true,
    user: {
      id: user.id,
      tenantId: user.tenantId,
      email: user.email,
      name: user.name,
      roles: user.roles,
      locale: user.locale ?? user.tenant.locale,
      sessionVersion: user.sessionVersion,
    },
  };
}
