// Push (docs/design.md "Live updates"): the agent's new proposal reaches an open queue over server-sent
// events, not by polling — the poll endpoint is blocked in the first test, so only a pushed change can bring
// the row. When the stream is unavailable the queue falls back to polling. New proposals are announced
// politely; the clock beside "Live" is not a live region.
import { expect, test } from "@playwright/test";
import { staff, useSession } from "./support/auth";
import { freshOrder, withDb } from "./support/db";
import { proposeRefund } from "./support/gateway";

test.describe.configure({ mode: "serial" });

const createdAt = (id: string) =>
  withDb(
    async (c) => (await c.query(`SELECT "createdAt" FROM "Proposal" WHERE id = $1`, [id])).rows[0].createdAt as Date,
  );

test("a new proposal is pushed into an open queue (polling blocked), announced politely", async ({ page }, info) => {
  await useSession(page, staff("tienda-es", "reviewer"), { landing: true });
  // Polling of the list is made impossible: a row can only arrive by push.
  let polls = 0;
  await page.route(/\/api\/proposals\?/, (route) => {
    polls += 1;
    return route.abort();
  });
  await page.goto("/queue");
  await expect(page.locator('[data-pushed="true"]')).toBeVisible();
  await expect(page.locator("[data-live][aria-live], [data-live] [aria-live]")).toHaveCount(0); // "Live" is no ticking live region
  const order = await freshOrder("tienda-es", 4_321);

  const id = await proposeRefund("tienda-es", order);
  const row = page.locator(`tr[data-proposal-id="${id}"]`);
  await expect(row).toBeVisible();
  const visibleAt = Date.now();
  const latency = visibleAt - (await createdAt(id)).getTime();
  info.annotations.push({
    type: "push latency (agent's proposal committed → row visible)",
    description: `${latency} ms`,
  });
  const announcer = page.getByTestId("queue-announcer");
  await expect(announcer).toHaveAttribute("role", "status");
  await expect(announcer).toContainText(`Nueva propuesta: pedido ${order}`);
  // Any poll was aborted above, so the row can only have come by push; how many were tried is recorded.
  info.annotations.push({ type: "list polls tried (all aborted)", description: String(polls) });
});

test("an open proposal page learns of a decision made elsewhere by push", async ({ page, browser }) => {
  const order = await freshOrder("shop-us", 3_100);
  const id = await proposeRefund("shop-us", order);
  await useSession(page, staff("shop-us", "reviewer", 0));
  await page.goto(`/proposals/${id}`);
  await expect(page.getByRole("button", { name: "Approve", exact: true })).toBeVisible();
  const other = await browser.newContext();
  const second = await other.newPage();
  try {
    await useSession(second, staff("shop-us", "reviewer", 1));
    await second.goto(`/proposals/${id}`);
    await second.getByRole("button", { name: "Reject" }).click();
    await second.getByLabel("Reason for the customer (the agent reads it to them)").fill("Not eligible for a refund.");
    await second.getByRole("dialog").getByRole("button", { name: "Reject proposal" }).click();
    await expect(second.getByRole("status").filter({ hasText: "Rejected." })).toBeVisible();
  } finally {
    await other.close();
  }
  // The first reviewer's page follows without a reload.
  await expect(page.getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);
});

test("without the stream the queue polls: the row still arrives, and the status says when it was updated", async ({
  page,
}) => {
  await useSession(page, staff("tienda-es", "reviewer"), { landing: true });
  await page.route("**/api/stream/changes", (route) => route.abort());
  await page.goto("/queue");
  await expect(page.locator('[data-live="ok"][data-pushed="false"]')).toContainText(/actualizado|updated/);
  const id = await proposeRefund("tienda-es", await freshOrder("tienda-es", 2_468));
  await expect(page.locator(`tr[data-proposal-id="${id}"]`)).toBeVisible();
});
