// An admin issues the shop's Orders API key in the product (no curl): shown once, listed with its scopes,
// it writes an order; a read-only key is refused a write (403); revoked, the key gets 401 on its next request.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { useSession, staff } from "./support/auth";
import { withDb } from "./support/db";

const US = "shop-us";
const putOrder = (request: APIRequestContext, key: string, number: string) =>
  request.put(`/api/v1/orders/${number}`, {
    headers: { authorization: `Bearer ${key}` },
    data: {
      customer: { id: `cus_e2e_${number}`, email: "kim@customer.example", name: "Kim Customer" },
      currency: "USD",
      total_minor: 2_500,
      status: "paid",
      placed_at: new Date(Date.now() - 3_600_000).toISOString(),
      items: [{ sku: "CAP-1", name: "Cap", quantity: 1, unit_minor: 2_500 }],
      payments: [
        {
          provider: "manual",
          reference: `pay_${number}`,
          method: "card",
          captured_minor: 2_500,
          holder: "Kim",
          display: "Visa •••• 4242",
        },
      ],
    },
  });

async function issue(page: import("@playwright/test").Page, label: string, scopes: { write: boolean; read: boolean }) {
  const form = page.getByRole("region", { name: "Issue an integration key" });
  await form.getByLabel("Label").fill(label);
  await form.getByRole("checkbox", { name: /orders:write/ }).setChecked(scopes.write);
  await form.getByRole("checkbox", { name: /orders:read/ }).setChecked(scopes.read);
  await form.getByRole("button", { name: "Issue key" }).click();
  const key = (await form.getByTestId("shown-once").textContent())!.trim();
  expect(key).toMatch(/^igk_/);
  return key;
}

test("issue an integration key in Admin (shown once) → it writes an order; read-only is refused a write; revoked → 401", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  await useSession(page, staff(US, "admin"));
  await page.goto("/admin");
  const key = await issue(page, `E2E shop backend ${stamp}`, { write: true, read: true });

  const number = `E2E-IGK-${stamp}`;
  const put = await putOrder(page.request, key, number);
  expect(put.status(), await put.text()).toBe(201);
  expect(await put.json()).toMatchObject({ number, refundable: { minor: 2_500, currency: "USD" } });

  await page.reload();
  const row = page.getByRole("row", { name: new RegExp(`E2E shop backend ${stamp}`) });
  await expect(row).toContainText("active");
  await expect(row).toContainText("orders:read, orders:write");
  await expect(row).toContainText(key.slice(0, 12)); // the prefix, never the key
  await expect(page.locator("body")).not.toContainText(key);

  const readOnly = await issue(page, `E2E read-only ${stamp}`, { write: false, read: true });
  const refused = await putOrder(page.request, readOnly, `${number}-RO`);
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ code: "permission_denied" });

  await row.getByRole("button", { name: `Revoke key E2E shop backend ${stamp}` }).click();
  await page
    .getByRole("dialog", { name: "Revoke this integration key?" })
    .getByRole("button", { name: "Revoke key" })
    .click();
  await expect(row).toContainText("revoked");
  expect((await putOrder(page.request, key, number)).status()).toBe(401);
  const stored = await withDb(
    async (db) =>
      (
        await db.query(`SELECT "keyHash", "revokedAt" FROM "IntegrationKey" WHERE name = $1`, [
          `E2E shop backend ${stamp}`,
        ])
      ).rows,
  );
  expect(stored).toHaveLength(1);
  expect(stored[0].revokedAt).not.toBeNull();
  expect(JSON.stringify(stored)).not.toContain(key);
});

test("no scope chosen: the form says so and issues nothing", async ({ page }) => {
  await useSession(page, staff(US, "admin"));
  await page.goto("/admin");
  const form = page.getByRole("region", { name: "Issue an integration key" });
  await form.getByLabel("Label").fill("E2E no scopes");
  await form.getByRole("checkbox", { name: /orders:write/ }).uncheck();
  await form.getByRole("checkbox", { name: /orders:read/ }).uncheck();
  await form.getByRole("button", { name: "Issue key" }).click();
  await expect(form.getByRole("alert")).toBeVisible();
  await expect(form.getByTestId("shown-once")).toHaveCount(0);
  const n = await withDb(
    async (db) =>
      (await db.query(`SELECT count(*)::int AS n FROM "IntegrationKey" WHERE name = 'E2E no scopes'`)).rows[0].n,
  );
  expect(n).toBe(0);
});
