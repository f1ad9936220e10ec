// Comments on a proposal (docs/design.md "Comments"): a reviewer adds one from the proposal page; it appears in
// the history with the author's name and a time with its zone, stored with the customer's e-mail masked, and
// audited. That an auditor (no proposal access) cannot add one is proven in
// tests/integration/proposal-comments.test.ts (the use case behind the JSON route).
import { expect, test } from "@playwright/test";
import { useSession, staff } from "./support/auth";
import { freshOrder, withDb } from "./support/db";
import { proposeRefund } from "./support/gateway";

test.setTimeout(120_000);

test("a reviewer comments on a proposal: shown in the history with name and zoned time, stored redacted, audited", async ({
  page,
}) => {
  const order = await freshOrder("shop-us", 3_210);
  const proposalId = await proposeRefund("shop-us", order);
  const reviewer = staff("shop-us", "reviewer", 0);
  await useSession(page, reviewer);
  await page.goto(`/proposals/${proposalId}`);
  const history = page.getByRole("region", { name: "History" });
  const box = page.getByLabel("Comment (staff only, never sent to the agent)");
  await box.fill("Customer wrote from someone@example.org; checking the receipt first.");
  await page.getByRole("button", { name: "Add comment" }).click();
  await expect(box).toHaveValue("");

  const comment = history.locator("[data-comment-id]");
  await expect(comment).toHaveCount(1);
  const name = await withDb(
    async (c) =>
      (await c.query(`SELECT name FROM "StaffUser" WHERE email = $1`, [reviewer.email])).rows[0].name as string,
  );
  await expect(comment).toContainText(`Comment by ${name}`);
  await expect(comment).toContainText("checking the receipt first.");
  await expect(comment).not.toContainText("someone@example.org"); // stored masked: what is shown is what was stored
  // The time carries its zone (docs/design.md "Times"): e.g. "Dec 1, 2026, 4:52 PM UTC" or "… GMT+1".
  await expect(comment.locator("time")).toHaveText(/(UTC|GMT|[A-Z]{2,5})([+-]\d{1,2}(:\d{2})?)?$/);

  const stored = await withDb(async (c) => {
    const id = await comment.getAttribute("data-comment-id");
    const row = (
      await c.query(`SELECT body FROM "ProposalComment" WHERE id = $1 AND "proposalId" = $2`, [id, proposalId])
    ).rows[0] as { body: string };
    const events = (
      await c.query(`SELECT data FROM "AuditEvent" WHERE action = 'proposal:comment' AND "proposalId" = $1`, [
        proposalId,
      ])
    ).rows as {
      data: { commentId: string };
    }[];
    return { id, row, events };
  });
  expect(stored.row.body).not.toContain("someone@example.org");
  expect(stored.row.body).toContain("checking the receipt first.");
  expect(stored.events.map((e) => e.data.commentId)).toEqual([stored.id]);
});
