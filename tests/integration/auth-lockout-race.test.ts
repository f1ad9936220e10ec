// The sign-in lockout counts concurrent failures atomically: the attempt is reserved (a guarded UPDATE …
// RETURNING) before the password is checked, so of many parallel wrong passwords exactly LOCKOUT_THRESHOLD
// are evaluated and every later one is refused as locked without its password being evaluated.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { LOCKOUT_THRESHOLD, verifyCredentials } from "@/lib/server/auth/verify-credentials";
import { verifyStepUpPassword } from "@/lib/server/auth/verify-step-up-password";
import { recordSignIn } from "@/lib/server/auth/record-sign-in";
import { staffOf } from "../support/actors";
import { ES, US } from "./gateway-support";

const unlock = (email: string) =>
  db().staffUser.update({ where: { email }, data: { failedLoginCount: 0, lockedUntil: null } });
const reasons = (results: { ok: boolean; reason?: string }[]) =>
  results.reduce<Record<string, number>>(
    (acc, r) => ({ ...acc, [r.ok ? "ok" : r.reason!]: (acc[r.ok ? "ok" : r.reason!] ?? 0) + 1 }),
    {},
  );

describe("lockout under concurrent guesses", () => {
  it("20 concurrent wrong passwords: exactly 5 evaluated (bad_password), 15 refused as locked; audited as such", async () => {
    const who = staffOf(US, "ops");
    const results = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const r = await verifyCredentials(who.email, `wrong-guess-${i}`);
        await recordSignIn({ email: who.email, method: "password", result: r });
        return r;
      }),
    );
    expect(reasons(results)).toEqual({ bad_password: LOCKOUT_THRESHOLD, locked: 20 - LOCKOUT_THRESHOLD });
    const row = await db().staffUser.findUniqueOrThrow({ where: { email: who.email } });
    expect(row.failedLoginCount).toBe(LOCKOUT_THRESHOLD);
    expect(row.lockedUntil!.getTime()).toBeGreaterThan(Date.now());
    // The right password during the pause is refused too.
    expect(await verifyCredentials(who.email, who.password)).toMatchObject({ ok: false, reason: "locked" });
    const events = await db().auditEvent.findMany({
      where: { action: "auth:sign_in", tenantId: row.tenantId, outcome: "unauthenticated" },
    });
    const byReason = events.reduce<Record<string, number>>((acc, e) => {
      const r = String((e.data as { reason?: string } | null)?.reason ?? "?");
      return { ...acc, [r]: (acc[r] ?? 0) + 1 };
    }, {});
    expect(byReason.bad_password).toBe(LOCKOUT_THRESHOLD);
    await unlock(who.email);
  });

  it("the boundary: four wrong passwords then the right one signs in; five wrong then the right one is locked", async () => {
    const who = staffOf(ES, "ops");
    for (let i = 0; i < LOCKOUT_THRESHOLD - 1; i++)
      expect(await verifyCredentials(who.email, `wrong-${i}`)).toMatchObject({ reason: "bad_password" });
    expect((await verifyCredentials(who.email, who.password)).ok).toBe(true);
    expect(await db().staffUser.findUniqueOrThrow({ where: { email: who.email } })).toMatchObject({
      failedLoginCount: 0,
      lockedUntil: null,
    });
    for (let i = 0; i < LOCKOUT_THRESHOLD; i++)
      expect(await verifyCredentials(who.email, `wrong-${i}`)).toMatchObject({ reason: "bad_password" });
    expect(await verifyCredentials(who.email, who.password)).toMatchObject({ ok: false, reason: "locked" });
    // After the pause the right password works again and clears the counter and the pause.
    await db().staffUser.update({ where: { email: who.email }, data: { lockedUntil: new Date(Date.now() - 1000) } });
    expect((await verifyCredentials(who.email, who.password)).ok).toBe(true);
    expect(await db().staffUser.findUniqueOrThrow({ where: { email: who.email } })).toMatchObject({
      failedLoginCount: 0,
      lockedUntil: null,
    });
  });

  it("step-up guesses share the counter: 20 concurrent wrong step-up passwords, exactly 5 evaluated", async () => {
    const who = staffOf(US, "reviewer", 1);
    const user = await db().staffUser.findUniqueOrThrow({ where: { email: who.email } });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => verifyStepUpPassword(user.id, `wrong-${i}`)),
    );
    expect(reasons(results)).toEqual({ bad_password: LOCKOUT_THRESHOLD, locked: 20 - LOCKOUT_THRESHOLD });
    expect(await verifyStepUpPassword(user.id, who.password)).toEqual({ ok: false, reason: "locked" });
    await unlock(who.email);
    expect((await verifyStepUpPassword(user.id, who.password)).ok).toBe(true);
  });
});
