import { expect, test } from "@playwright/test";
import { useSession, staff } from "./support/auth";
import { freshOrder, withDb } from "./support/db";
import { proposeRefund } from "./support/gateway";

// In the browser: a refund asked again after a rejection shows the reviewer "previously
// rejected" (reason, who, when) in the queue and on the detail page. (Plain rendering; styled elsewhere.)
test.describe.configure({ mode: "serial" });

const setCooldown = (minutes: number) =>
  withDb((db) => db.query(`UPDATE "Tenant" SET "rejectionCooldownMinutes" = $1 WHERE slug = 'shop-us'`, [minutes]));

test("a re-asked refund carries the earlier rejection into the queue and the detail page", async ({ page }) => {
  const order = await freshOrder("shop-us", 3_210);
  const first = await proposeRefund("shop-us", order);
  const reviewer = staff("shop-us", "reviewer", 1);
  await useSession(page, reviewer);
  await page.goto(`/proposals/${first}`);
  await page.getByRole("button", { name: "Reject" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel(/Reason/).fill("Parcel was delivered and signed for");
  await dialog.getByRole("button", { name: "Reject proposal" }).click();
  await expect(page.getByRole("status")).toContainText("Rejected.");

  await setCooldown(0);
  let second: string;
  try {
    second = await proposeRefund("shop-us", order);
  } finally {
    await setCooldown(1440);
  }
  expect(second).not.toBe(first);

  await page.goto("/queue");
  const row = page.locator(`tr[data-proposal-id="${second}"]`);
  await expect(row).toContainText("Previously rejected");
  await page.goto(`/proposals/${second}`);
  const note = page.getByTestId("previously-rejected");
  await expect(note).toContainText("Parcel was delivered and signed for");
  await expect(note).toContainText(reviewer.name);
});
