// Phones: on a 390×844 screen the proposal's Approve and Reject sit in a bar stuck to the bottom of the first
// viewport (they used to be ~1040 px down), stay there while the facts scroll past, and the approve dialog
// is fully visible; approving from the phone works end to end.
import { expect, test } from "@playwright/test";
import { signIn, staff } from "./support/auth";
import { freshOrder, withDb } from "./support/db";
import { proposeRefund } from "./support/gateway";

test.use({ viewport: { width: 390, height: 844 } });

test("the phone action bar is within the first viewport, the approve dialog fully visible, and approving works", async ({
  page,
}) => {
  test.setTimeout(120_000); // an agent run, a sign-in and an approval on a loaded machine
  const id = await proposeRefund("shop-us", await freshOrder("shop-us", 1_999));
  await signIn(page, staff("shop-us", "reviewer"));
  await page.goto(`/proposals/${id}`);
  const bar = page.getByRole("group", { name: "Decision" });
  const approve = bar.getByRole("button", { name: "Approve", exact: true });
  const reject = bar.getByRole("button", { name: "Reject", exact: true });
  await expect(approve).toBeInViewport({ ratio: 1 });
  await expect(reject).toBeInViewport({ ratio: 1 });
  const box = await bar.boundingBox();
  expect(box!.y + box!.height).toBeLessThanOrEqual(844);

  await page.mouse.wheel(0, 400);
  await expect(approve).toBeInViewport({ ratio: 1 }); // still there after scrolling

  await approve.click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("confirm-text")).toBeVisible();
  await page.waitForTimeout(300); // the open animation
  const d = await dialog.boundingBox();
  expect(d!.y >= 0 && d!.x >= 0 && d!.y + d!.height <= 844 && d!.x + d!.width <= 390).toBe(true);
  await expect(dialog.getByRole("button", { name: "Approve refund" })).toBeInViewport({ ratio: 1 });
  await dialog.getByRole("button", { name: "Approve refund" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Approved." })).toBeVisible();
  const approvals = await withDb(async (c) =>
    Number((await c.query(`SELECT count(*) FROM "Approval" WHERE "proposalId" = $1`, [id])).rows[0].count),
  );
  expect(approvals).toBe(1);
});
