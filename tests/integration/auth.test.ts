import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { hashPassword, verifyPassword } from "@/lib/server/auth/password";
import { LOCKOUT_THRESHOLD, verifyCredentials } from "@/lib/server/auth/verify-credentials";
import { recordSignIn } from "@/lib/server/auth/record-sign-in";
import { demoTenants } from "../../scripts/lib/demo-data";

const reviewer = demoTenants[1]!.staff.find((s) => s.roles.includes("reviewer"))!;
const ops = demoTenants[1]!.staff.find((s) => s.roles.includes("ops"))!;

describe("password hashing", () => {
  it("uses argon2id with a fresh salt and verifies only the right password", async () => {
    const a = await hashPassword("correct horse battery staple");
    const b = await hashPassword("correct horse battery staple");
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword(a, "correct horse battery staple")).toBe(true);
    expect(await verifyPassword(a, "correct horse battery stapl")).toBe(false);
  });
  it("treats a malformed stored hash as a failed check, not an error", async () => {
    expect(await verifyPassword("not-a-hash", "x")).toBe(false);
  });
});

describe("verifyCredentials", () => {
  it("accepts the right password case-insensitively on the email and resets the failure counter", async () => {
    const r = await verifyCredentials(`  ${reviewer.email.toUpperCase()} `, reviewer.password);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.user.roles).toEqual(["reviewer"]);
  });

  it("answers an unknown email like a wrong password", async () => {
    const unknown = await verifyCredentials("nobody@nowhere.test", "x");
    const wrong = await verifyCredentials(reviewer.email, "wrong");
    expect(unknown).toEqual({ ok: false, reason: "unknown_user" });
    expect(wrong.ok).toBe(false);
  });

  it("locks the account after repeated failures, even for the right password, and even when guesses race", async () => {
    await Promise.all(Array.from({ length: LOCKOUT_THRESHOLD + 3 }, () => verifyCredentials(ops.email, "guess")));
    const row = await db().staffUser.findUniqueOrThrow({ where: { email: ops.email } });
    // Exactly the threshold were evaluated; the three later guesses found the pause (auth-lockout-race.test.ts).
    expect(row.failedLoginCount).toBe(LOCKOUT_THRESHOLD);
    expect(row.lockedUntil!.getTime()).toBeGreaterThan(Date.now());
    const r = await verifyCredentials(ops.email, ops.password);
    expect(r).toMatchObject({ ok: false, reason: "locked" });
    // After the pause, the right password works again and clears the counter.
    await db().staffUser.update({ where: { email: ops.email }, data: { lockedUntil: new Date(Date.now() - 1000) } });
    expect((await verifyCredentials(ops.email, ops.password)).ok).toBe(true);
    expect((await db().staffUser.findUniqueOrThrow({ where: { email: ops.email } })).failedLoginCount).toBe(0);
  });

  it("refuses disabled users", async () => {
    await db().staffUser.update({ where: { email: reviewer.email }, data: { disabled: true } });
    expect(await verifyCredentials(reviewer.email, reviewer.password)).toMatchObject({ ok: false, reason: "disabled" });
    await db().staffUser.update({ where: { email: reviewer.email }, data: { disabled: false } });
  });
});

describe("sign-in audit events", () => {
  it("records successes and failures with the email only as a fingerprint, never the password", async () => {
    const ok = await verifyCredentials(reviewer.email, reviewer.password);
    await recordSignIn({ email: reviewer.email, method: "password", result: ok });
    const bad = await verifyCredentials(reviewer.email, "Sup3r-Secret-Guess");
    await recordSignIn({ email: reviewer.email, method: "password", result: bad });
    const events = await db().auditEvent.findMany({ where: { action: "auth:sign_in" }, orderBy: { pos: "asc" } });
    expect(events.map((e) => e.outcome)).toEqual(["ok", "unauthenticated"]);
    for (const e of events) {
      expect(e.actorType).toBe("staff");
      expect(e.tenantId).toBe(ok.ok ? ok.user.tenantId : null);
      const text = JSON.stringify(e);
      expect(text).not.toContain(reviewer.email);
      expect(text).not.toContain("Sup3r-Secret-Guess");
      expect(text).not.toContain(reviewer.password);
    }
  });
});
