// Bulk reject on the queue (docs/design.md "Approvals"): a reviewer selects several pending proposals with the
// keyboard and the mouse, writes one message for the customer, and each is rejected as its own decision over
// its own hash. One proposal is rejected by another reviewer while the dialog is open: it is reported, the
// others are still rejected, and the database and audit trail say exactly that.
import { expect, test } from "@playwright/test";
import { useSession, staff } from "./support/auth";
import { freshOrder, withDb } from "./support/db";
import { proposeRefund } from "./support/gateway";

test.setTimeout(150_000); // three proposals, two browsers and two sign-ins on a loaded machine

test("select three, one decided meanwhile: two rejected (each audited over its own hash), one reported", async ({
  page,
  browser,
}) => {
  const orders: string[] = [];
  const ids: string[] = [];
  for (const amount of [2_101, 2_102, 2_103]) {
    const order = await freshOrder("shop-us", amount);
    orders.push(order);
    ids.push(await proposeRefund("shop-us", order));
  }
  const reviewer = staff("shop-us", "reviewer", 0);
  await useSession(page, reviewer);
  await page.goto("/queue");
  const open = page.getByRole("button", { name: /^Reject selected/ });
  await expect(open).toBeDisabled();

  // Keyboard: focus the first checkbox and press Space; the mouse for the others.
  const box = (order: string) => page.getByRole("checkbox", { name: `Select order ${order} for bulk reject` });
  await box(orders[0]!).focus();
  await page.keyboard.press("Space");
  await box(orders[1]!).check();
  await box(orders[2]!).check();
  await expect(page.getByTestId("bulk-reject-bar")).toContainText("3 selected");
  await open.click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Reject 3 proposals?" })).toBeVisible();
  await dialog.getByRole("button", { name: "Not eligible" }).click(); // a preset reason, as in the single dialog
  await expect(dialog.getByLabel("Reason for the customer (the agent reads it to them)")).not.toHaveValue("");
  await dialog
    .getByLabel("Reason for the customer (the agent reads it to them)")
    .fill("These duplicate requests are not eligible for a refund.");

  // Meanwhile another reviewer rejects the second proposal on its own page.
  const other = await browser.newContext();
  try {
    const second = await other.newPage();
    await useSession(second, staff("shop-us", "reviewer", 1));
    await second.goto(`/proposals/${ids[1]}`);
    await second.getByRole("button", { name: "Reject" }).click();
    await second.getByLabel("Reason for the customer (the agent reads it to them)").fill("Handled by phone.");
    await second.getByRole("dialog").getByRole("button", { name: "Reject proposal" }).click();
    await expect(second.getByRole("status").filter({ hasText: "Rejected." })).toBeVisible();
  } finally {
    await other.close();
  }

  await dialog.getByRole("button", { name: "Reject 3 proposals" }).click();
  await expect(dialog.getByRole("status")).toHaveText("2 rejected, 1 not rejected.");
  await expect(dialog.locator(`[data-result-for="${ids[0]}"]`)).toHaveAttribute("data-outcome", "rejected");
  await expect(dialog.locator(`[data-result-for="${ids[1]}"]`)).toHaveAttribute("data-outcome", "refused");
  await expect(dialog.locator(`[data-result-for="${ids[1]}"]`)).toContainText(`Order ${orders[1]}: Not rejected`);
  await expect(dialog.locator(`[data-result-for="${ids[2]}"]`)).toHaveAttribute("data-outcome", "rejected");
  await dialog.getByRole("button", { name: "Close" }).click();
  for (const id of ids) await expect(page.locator(`tr[data-proposal-id="${id}"]`)).toHaveCount(0);

  // The database: each rejection is its own decision, with its own audit event over its own hash.
  const rows = await withDb(async (c) => {
    const proposals = (
      await c.query(
        `SELECT p.id, p.status::text AS status, p.hash, s.email AS "rejectedBy", p."rejectionReason" FROM "Proposal" p
           LEFT JOIN "StaffUser" s ON s.id = p."rejectedByStaffId" WHERE p.id = ANY($1::uuid[])`,
        [ids],
      )
    ).rows as { id: string; status: string; hash: string; rejectedBy: string; rejectionReason: string }[];
    const events = (
      await c.query(
        `SELECT e."proposalId", e."proposalHash", e.outcome, e."traceId" FROM "AuditEvent" e JOIN "StaffUser" s ON s.id::text = e."actorId"
          WHERE e.action = 'proposal:reject' AND s.email = $2 AND e."proposalId" = ANY($1::uuid[])`,
        [ids, reviewer.email],
      )
    ).rows as { proposalId: string; proposalHash: string; outcome: string; traceId: string }[];
    return { proposals, events };
  });
  const byId = new Map(rows.proposals.map((p) => [p.id, p]));
  for (const id of [ids[0]!, ids[2]!]) {
    expect(byId.get(id)).toMatchObject({
      status: "rejected",
      rejectedBy: reviewer.email,
      rejectionReason: "These duplicate requests are not eligible for a refund.",
    });
  }
  expect(byId.get(ids[1]!)).toMatchObject({
    status: "rejected",
    rejectedBy: staff("shop-us", "reviewer", 1).email,
    rejectionReason: "Handled by phone.",
  });
  const ok = rows.events.filter((e) => e.outcome === "ok");
  expect(ok.map((e) => e.proposalId).sort()).toEqual([ids[0]!, ids[2]!].sort());
  for (const e of ok) expect(e.proposalHash).toBe(byId.get(e.proposalId)!.hash);
  expect(rows.events.find((e) => e.proposalId === ids[1])?.outcome).toBe("permission_denied");
  expect(new Set(rows.events.map((e) => e.traceId)).size).toBe(3);
});
