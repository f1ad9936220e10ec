// A paused account says so (issue #36 item 6): a person typing the right password during a lockout read "check
// your email and password". The credentials callback now refuses a paused account with an error naming the
// pause and its end (the page says until when, and that an admin can unlock), whatever the password — the
// password is still not evaluated during a pause, so the answer never tells whether a password is right.
import { describe, expect, it } from "vitest";
import type { CredentialsConfig } from "next-auth/providers/credentials";
import en from "@/messages/en.json";
import es from "@/messages/es.json";
import { db } from "@/lib/server/db/client";
import { authOptions } from "@/lib/server/auth/options";
import { LOCKOUT_THRESHOLD, verifyCredentials } from "@/lib/server/auth/verify-credentials";
import { signInProblem } from "@/lib/domain/sign-in-error";
import { demoTenants } from "../../scripts/lib/demo-data";

const who = demoTenants[0]!.staff.find((s) => s.roles.includes("reviewer"))!;

/** The password provider's own authorize, as next-auth calls it on POST /api/auth/callback/credentials. */
function authorize(email: string, password: string) {
  const provider = authOptions().providers.find((p) => p.id === "credentials") as unknown as {
    options: CredentialsConfig;
  };
  return provider.options.authorize({ email, password }, {});
}

/** What the sign-in form shows for the callback's answer: the refusal's error string, decoded. */
async function refusal(email: string, password: string) {
  try {
    const user = await authorize(email, password);
    return user ? { signedIn: true } : signInProblem("CredentialsSignin", "failed");
  } catch (error) {
    return signInProblem((error as Error).message, "failed");
  }
}

describe("sign-in while the account is paused", () => {
  it("the right password: the pause and its end, not 'check your email and password'; wrong ones say the same", async () => {
    for (let i = 0; i < LOCKOUT_THRESHOLD; i++) await verifyCredentials(who.email, "wrong guess");
    const row = await db().staffUser.findUniqueOrThrow({ where: { email: who.email } });
    expect(row.lockedUntil!.getTime()).toBeGreaterThan(Date.now());

    const right = await refusal(who.email, who.password);
    expect(right).toEqual({ kind: "paused", until: row.lockedUntil });
    // A wrong password during the pause reads the same: the pause reveals nothing about the password.
    expect(await refusal(who.email, "another guess")).toEqual(right);
    // The pause did not grow, and the guesses during it were not counted (the password was not evaluated).
    const after = await db().staffUser.findUniqueOrThrow({ where: { email: who.email } });
    expect(after.lockedUntil).toEqual(row.lockedUntil);
    expect(after.failedLoginCount).toBe(LOCKOUT_THRESHOLD);

    // An admin's unlock (PATCH /api/admin/staff/{id} {unlock: true}) lets the right password in at once.
    await db().staffUser.update({ where: { id: row.id }, data: { failedLoginCount: 0, lockedUntil: null } });
    expect(await refusal(who.email, who.password)).toEqual({ signedIn: true });
  });

  it("an account that is not paused keeps the generic answer (unknown email and wrong password alike)", async () => {
    expect(await refusal(who.email, "wrong once")).toEqual({ kind: "failed" });
    expect(await refusal("nobody@nowhere.test", "x")).toEqual({ kind: "failed" });
  });

  it("the page's words: paused until when, and that an admin can unlock — in both languages", () => {
    expect(en.signIn.paused).toContain("{until}");
    expect(en.signIn.paused).toMatch(/paused/);
    expect(en.signIn.paused).toMatch(/admin.*unlock/);
    expect(es.signIn.paused).toContain("{until}");
    expect(es.signIn.paused).toMatch(/administrador.*desbloquee/);
    expect(en.signIn.failed).not.toEqual(en.signIn.paused);
  });
});
