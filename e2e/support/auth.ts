import { readFileSync, renameSync, statSync } from "node:fs";
import { expect, type BrowserContext, type Page } from "@playwright/test";
import { demoTenants } from "../../scripts/lib/demo-data";
import { baseURL } from "./gateway";

export type DemoRole = "ops" | "reviewer" | "auditor" | "admin";

/** A demo staff member of a tenant with the given role (the n-th one, for two reviewers). */
export function staff(tenantSlug: string, role: DemoRole, n = 0) {
  const tenant = demoTenants.find((t) => t.slug === tenantSlug);
  const member = tenant?.staff.filter((s) => s.roles.includes(role))[n];
  if (!member) throw new Error(`no demo ${role} #${n} in ${tenantSlug}`);
  return member;
}

/** Signs in through the sign-in form, as a person would, and waits for the dashboard. */
export async function signIn(page: Page, who: { email: string; password: string }, opts: { timeout?: number } = {}) {
  await page.goto("/sign-in");
  await page.getByLabel(/^(Email|Correo electrónico)$/).fill(who.email);
  await page.getByLabel(/^(Password|Contraseña)$/).fill(who.password);
  await page.getByRole("button", { name: /^(Sign in|Entrar)$/ }).click();
  await expect(page).not.toHaveURL(/\/sign-in/, opts);
}

/**
 * Signs a browser context in with the request the sign-in form sends (next-auth's CSRF token, then the credentials
 * callback, as `signIn("credentials")` posts it) without rendering the form or the landing page, and checks that
 * the session is there. For the stored sessions (auth.setup.ts, useSession): the form itself, its landing and its
 * errors are auth.spec's, open-redirect's and the other sign-in specs' to test, with signIn().
 */
export async function signInByRequest(context: BrowserContext, who: { email: string; password: string }) {
  const origin = new URL(baseURL).origin;
  const csrf = await context.request.get("/api/auth/csrf");
  expect(csrf.status()).toBe(200);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await context.request.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: who.email, password: who.password, callbackUrl: `${origin}/`, json: "true" },
    headers: { origin },
  });
  expect(res.status(), await res.text()).toBe(200);
  expect(((await res.json()) as { url: string }).url).not.toMatch(/[?&](error|csrf)=/);
  const session = (await (await context.request.get("/api/auth/session")).json()) as { user?: { email?: string } };
  expect(session.user?.email).toBe(who.email);
}

/** Where auth.setup.ts keeps a demo staff member's signed-in browser state (its session cookie). */
export const authFile = (email: string) => `.data/e2e-auth/${email}.json`;

/**
 * How old a stored session may be when a spec starts with it: a sign-in counts as step-up for 5 minutes (the demo
 * tenants' policy), and a spec that approves or changes settings must not be asked for the password half-way.
 */
const FRESH_ENOUGH_MS = 2.5 * 60_000;

/**
 * Signs the page's browser context in as a demo staff member with the session auth.setup.ts opened for them (its
 * cookie), signing in again first (signInByRequest) when that session is older than FRESH_ENOUGH_MS (the new state
 * replaces the file atomically: parallel workers read whole files); with `landing`, also opens the dashboard (where
 * a sign-in lands). For specs that test something other than signing in; a spec that needs an old session (step-up)
 * or ends the session signs in with signIn().
 */
export async function useSession(
  page: Page,
  who: { email: string; password: string },
  opts: { landing?: boolean } = {},
) {
  const file = authFile(who.email);
  if (Date.now() - statSync(file).mtimeMs > FRESH_ENOUGH_MS) {
    const browser = page.context().browser();
    if (!browser) throw new Error("useSession: the page's context has no browser");
    const fresh = await browser.newContext({ baseURL });
    try {
      await signInByRequest(fresh, who);
      const tmp = `${file}.${process.pid}.tmp`;
      await fresh.storageState({ path: tmp });
      renameSync(tmp, file);
    } finally {
      await fresh.close();
    }
  }
  const state = JSON.parse(readFileSync(file, "utf8")) as {
    cookies: Parameters<BrowserContext["addCookies"]>[0];
  };
  await page.context().addCookies(state.cookies);
  if (!opts.landing) return;
  await page.goto("/");
  await expect(page).not.toHaveURL(/\/sign-in/);
}

/**
 * Switches the test's own page to another demo staff member: first signs whoever it was out (the cookies cleared on
 * a blank page, so nothing of the last role's page can still run), then useSession. One page per test instead of a
 * browser context per role: a new context is a cold renderer (docs/testing.md).
 */
export async function switchTo(page: Page, who: { email: string; password: string }, opts: { landing?: boolean } = {}) {
  await page.goto("about:blank");
  await page.context().clearCookies();
  await useSession(page, who, opts);
}
