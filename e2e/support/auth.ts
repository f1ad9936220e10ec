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

/** Where auth.setup.ts keeps a demo staff member's signed-in browser state (its session cookie). */
export const authFile = (email: string) => `.data/e2e-auth/${email}.json`;

/**
 * How old a stored session may be when a spec starts with it: a sign-in counts as step-up for 5 minutes (the demo
 * tenants' policy), and a spec that approves or changes settings must not be asked for the password half-way.
 */
const FRESH_ENOUGH_MS = 2.5 * 60_000;

/**
 * Signs the page's browser context in as a demo staff member with the session auth.setup.ts opened for them (its
 * cookie), signing in again through the form first when that session is older than FRESH_ENOUGH_MS (the new state
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
      await signIn(await fresh.newPage(), who, { timeout: 30_000 });
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
