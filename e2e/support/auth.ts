import { readFileSync } from "node:fs";
import { expect, type BrowserContext, type Page } from "@playwright/test";
import { demoTenants } from "../../scripts/lib/demo-data";

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
 * Signs the page's browser context in as a demo staff member with the session auth.setup.ts opened once for
 * them (its cookie); with `landing`, also opens the dashboard (where a sign-in lands). For specs that test
 * something other than signing in; a spec that approves with a session it expects fresh (step-up) or ends the
 * session signs in for real with signIn().
 */
export async function useSession(page: Page, who: { email: string }, opts: { landing?: boolean } = {}) {
  const state = JSON.parse(readFileSync(authFile(who.email), "utf8")) as {
    cookies: Parameters<BrowserContext["addCookies"]>[0];
  };
  await page.context().addCookies(state.cookies);
  if (!opts.landing) return;
  await page.goto("/");
  await expect(page).not.toHaveURL(/\/sign-in/);
}
