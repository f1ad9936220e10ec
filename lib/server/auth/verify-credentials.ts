import "server-only";
import { sql } from "@/lib/server/db/sql";
import { db } from "@/lib/server/db/client";
import { dummyPasswordHash, verifyPassword } from "@/lib/server/auth/password";
import { sqlPool } from "@/lib/server/db/pg";

export const LOCKOUT_THRESHOLD = 5;
const MAX_LOCK_MINUTES = 60;

/**
 * Reserves one password check for this account, BEFORE the password is verified (sign-in or an approval's
 * step-up: one counter, one lockout): one guarded UPDATE counts the attempt — and at the threshold starts the
 * pause (2, 4, 8 … up to 60 minutes) — only while the account is not paused. Concurrent guesses are
 * serialized by the row: exactly LOCKOUT_THRESHOLD of them get a check, every later one finds the pause and
 * is refused without its password being evaluated. (Counting after the check let 9–12 parallel guesses be
 * evaluated.) A right password then clears the counter and the pause: clearPasswordFailures.
 * Returns false when the account is paused.
 */
export async function reservePasswordAttempt(userId: string): Promise<boolean> {
  const reserved = (
    await sql<{ id: string }>`
    UPDATE "StaffUser"
       SET "failedLoginCount" = "failedLoginCount" + 1,
           "lockedUntil" = CASE WHEN "failedLoginCount" + 1 >= ${LOCKOUT_THRESHOLD}
                                THEN now() + make_interval(mins => LEAST(${MAX_LOCK_MINUTES}, power(2, "failedLoginCount" + 2 - ${LOCKOUT_THRESHOLD})::int))
                                ELSE "lockedUntil" END
     WHERE id = ${userId}::uuid AND ("lockedUntil" IS NULL OR "lockedUntil" <= now())
    RETURNING id`.execute(sqlPool())
  ).rows;
  return reserved.length === 1;
}

/** The right password: the reserved attempt and any earlier failures are forgotten, the pause lifted. */
export async function clearPasswordFailures(userId: string, data: { lastLoginAt?: Date } = {}): Promise<void> {
  await db().staffUser.update({ where: { id: userId }, data: { failedLoginCount: 0, lockedUntil: null, ...data } });
}

export type CredentialCheck =
  | {
      ok: true;
      user: {
        id: string;
        tenantId: string;
        email: string;
        name: string;
        roles: string[];
        locale: string;
        sessionVersion: number;
      };
    }
  | { ok: false; reason: "unknown_user" | "bad_password" | "disabled"; userId?: string; tenantId?: string }
  | { ok: false; reason: "locked"; lockedUntil: Date; userId: string; tenantId: string };

/**
 * Checks an email and password. Every path verifies one argon2id hash, so an unknown email costs
 * the same time as a wrong password (a paused account verifies the dummy hash: its password is not
 * evaluated, and the answer takes the same time). The attempt is reserved before the check
 * (reservePasswordAttempt), so parallel guesses cannot slip past the threshold. A paused account answers
 * `locked` with the pause's end whatever the password: the password is never evaluated during a pause.
 */
export async function verifyCredentials(emailInput: string, password: string): Promise<CredentialCheck> {
  const email = emailInput.trim().toLowerCase();
  const user = email
    ? await db().staffUser.findUnique({
        where: { email },
        include: { tenant: { select: { locale: true, active: true } } },
      })
    : null;
  if (!user || !user.passwordHash) {
    await verifyPassword(await dummyPasswordHash(), password);
    return { ok: false, reason: "unknown_user" };
  }
  const who = { userId: user.id, tenantId: user.tenantId };
  if (user.disabled || !user.tenant.active) {
    await verifyPassword(await dummyPasswordHash(), password);
    return { ok: false, reason: "disabled", ...who };
  }
  if (!(await reservePasswordAttempt(user.id))) {
    await verifyPassword(await dummyPasswordHash(), password);
    // Until when, to tell the person (the sign-in page says it, and that an admin can unlock): read after the
    // refusal, as a concurrent guess may just have started the pause.
    const paused = await db().staffUser.findUnique({ where: { id: user.id }, select: { lockedUntil: true } });
    return { ok: false, reason: "locked", lockedUntil: paused?.lockedUntil ?? new Date(), ...who };
  }
  if (!(await verifyPassword(user.passwordHash, password))) return { ok: false, reason: "bad_password", ...who };
  await clearPasswordFailures(user.id, { lastLoginAt: new Date() });
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
