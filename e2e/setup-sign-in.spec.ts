// Onboarding (docs/admin-api.md): after the invited person sets a password on the setup page they are signed
// in with it — a real credentials sign-in, audited like any other — and land on their own work (ops:
// Executions), not on the sign-in page. The link is then spent.
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { signIn, staff } from "./support/auth";
import { withDb } from "./support/db";

test.setTimeout(120_000);

test("set a password on the setup page → signed in, on Executions; the sign-in is audited; the link is spent", async ({
  page,
  browser,
}) => {
  await signIn(page, staff("shop-us", "admin"));
  const email = `setup-${randomBytes(4).toString("hex")}@shop-us.test`;
  const invited = await page.request.post("/api/admin/staff", {
    data: { email, name: "Olive Onboarding", roles: ["ops"] },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(invited.status()).toBe(201);
  const { setupUrl } = (await invited.json()) as { setupUrl: string };

  const fresh = await browser.newContext();
  try {
    const newcomer = await fresh.newPage();
    await newcomer.goto(setupUrl);
    const password = `Onboarding ${randomBytes(9).toString("base64url")}`;
    await newcomer.getByLabel("New password").fill(password);
    await newcomer.getByLabel("Repeat the password").fill(password);
    await newcomer.getByRole("button", { name: "Set password" }).click();
    await expect(newcomer).toHaveURL(/\/executions$/);
    await expect(newcomer.getByTestId("who").first()).toContainText("Signed in as Olive Onboarding");
    const signIns = await withDb(
      async (c) =>
        (
          await c.query(
            `SELECT e.outcome FROM "AuditEvent" e JOIN "StaffUser" u ON u.id::text = e."actorId" WHERE u.email = $1 AND e.action = 'auth:sign_in'`,
            [email],
          )
        ).rows as { outcome: string }[],
    );
    expect(signIns.map((r) => r.outcome)).toEqual(["ok"]);
    await newcomer.goto(setupUrl);
    await expect(newcomer.locator("main").getByRole("alert")).toContainText("no longer valid");
  } finally {
    await fresh.close();
  }
});
