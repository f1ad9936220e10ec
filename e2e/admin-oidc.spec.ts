import { expect, test, type Page } from "@playwright/test";
import { staff } from "./support/auth";
import { withDb } from "./support/db";
import { startOidcProvider } from "./support/oidc-provider";

// SSO for real. The dashboard signs in through a real OpenID provider started here
// (oidc-provider): an existing staff email signs in, an unknown one is refused, a disabled one is refused.
// playwright.config.ts points the server's OIDC_* at this provider.

test.describe.configure({ mode: "serial" });
const port = Number(process.env.E2E_PORT ?? 3100);
let provider: { close(): Promise<void> } | undefined;

test.beforeAll(async () => {
  provider = await startOidcProvider({
    port: port + 50,
    dashboardUrl: `http://localhost:${port}`,
    clientId: "e2e-dashboard",
    clientSecret: "e2e-oidc-client-secret-for-tests-only",
  });
});
test.afterAll(async () => {
  await provider?.close();
});

/** Sign-in page → "Sign in with Test SSO" → the provider's login and consent → back to the dashboard. */
async function ssoSignIn(page: Page, login: string) {
  await page.goto("/sign-in");
  await page.getByRole("button", { name: /Test SSO/ }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any");
  await page.getByRole("button", { name: "Sign-in" }).click();
  const consent = page.getByRole("button", { name: "Continue" });
  if (await consent.isVisible({ timeout: 5_000 }).catch(() => false)) await consent.click();
}
test("an existing staff email signs in through the OpenID provider; the session says oidc", async ({ page }) => {
  const auditor = staff("shop-us", "auditor");
  await ssoSignIn(page, auditor.email);
  await expect(page).not.toHaveURL(/\/sign-in|localhost:\d+\/interaction/);
  await page.goto("/audit");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const session = await (await page.request.get("/api/auth/session")).json();
  expect(session.user).toMatchObject({ email: auditor.email, amr: "oidc" });
  const user = await withDb(
    async (db) => (await db.query(`SELECT id FROM "StaffUser" WHERE email = $1`, [auditor.email])).rows[0].id,
  );
  const ok = await withDb(
    async (db) =>
      (
        await db.query(
          `SELECT outcome FROM "AuditEvent" WHERE action = 'auth:sign_in' AND "authMethod" = 'oidc' AND "actorId" = $1`,
          [user],
        )
      ).rows,
  );
  expect(ok.map((r) => r.outcome)).toContain("ok");
});

test("an unknown email is refused", async ({ page }) => {
  await ssoSignIn(page, "nobody.known@elsewhere.test");
  await expect(page).toHaveURL(/\/sign-in/);
  expect((await (await page.request.get("/api/auth/session")).json())?.user).toBeUndefined();
  const refused = await withDb(
    async (db) =>
      (
        await db.query(
          `SELECT outcome FROM "AuditEvent" WHERE action = 'auth:sign_in' AND "authMethod" = 'oidc' AND outcome <> 'ok'`,
        )
      ).rows,
  );
  expect(refused.length).toBeGreaterThanOrEqual(1);
});

test("a disabled staff member is refused", async ({ page }) => {
  const ops = staff("shop-us", "ops");
  await withDb((db) => db.query(`UPDATE "StaffUser" SET disabled = true WHERE email = $1`, [ops.email]));
  try {
    await ssoSignIn(page, ops.email);
    await expect(page).toHaveURL(/\/sign-in/);
    expect((await (await page.request.get("/api/auth/session")).json())?.user).toBeUndefined();
    await page.goto("/executions");
    await expect(page).toHaveURL(/\/sign-in/);
  } finally {
    await withDb((db) => db.query(`UPDATE "StaffUser" SET disabled = false WHERE email = $1`, [ops.email]));
  }
});
