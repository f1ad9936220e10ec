import { expect, type Page } from "@playwright/test";
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
export async function signIn(page: Page, who: { email: string; password: string }) {
  await page.goto("/sign-in");
  await page.getByLabel(/^(Email|Correo electrónico)$/).fill(who.email);
  await page.getByLabel(/^(Password|Contraseña)$/).fill(who.password);
  await page.getByRole("button", { name: /^(Sign in|Entrar)$/ }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);
}
