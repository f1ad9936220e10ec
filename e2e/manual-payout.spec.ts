// A refund of a payment no connected provider holds (a bank transfer), in the browser from prepare to the
// recorded payout (issue #36 item 1): the reviewer's dialog says ops pay it out by bank transfer (never "pays
// now" by card); the execution waits under Executions → To pay out, where ops record the transfer's reference;
// the agent reads awaiting payout, then ok. Then the auditor's trace page exports exactly that trace, and the
// export holds the human decision (issue #36 item 2), not only the agent's call and the execution.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { signIn, staff, useSession } from "./support/auth";
import { freshOrder, withDb } from "./support/db";
import { agentCall, proposeRefund } from "./support/gateway";
import { hydrated } from "./support/ui";

const riley = staff("shop-us", "reviewer", 0);
const ops = staff("shop-us", "ops", 0);
const auditor = staff("shop-us", "auditor", 0);

test("a bank-transfer refund: approved as a manual payout, recorded by ops under To pay out, the agent told; its trace export holds the approval", async ({
  browser,
}) => {
  // Below shop-us's four-eyes threshold: one reviewer approves, one ops person records the payout.
  const order = await freshOrder("shop-us", 4_500);
  await withDb((c) =>
    c.query(
      `UPDATE "Payment" SET provider = 'manual', method = 'bank_transfer', display = 'IBAN US•• •••• 3000',
              "providerPaymentRef" = 'bt_' || $1
        WHERE "orderId" = (SELECT id FROM "Order" WHERE number = $1)`,
      [order],
    ),
  );
  const id = await proposeRefund("shop-us", order);

  // The reviewer is told before approving who pays and how (signed in now: a fresh sign-in counts as step-up).
  const reviewer = await browser.newPage();
  await signIn(reviewer, riley);
  await reviewer.goto(`/proposals/${id}`);
  await reviewer.getByRole("button", { name: "Approve", exact: true }).click();
  const dialog = reviewer.getByRole("dialog");
  await expect(
    dialog.getByText("Your approval does not pay by card: ops will pay $45.00 out by bank transfer and record it."),
  ).toBeVisible();
  await expect(dialog.getByText(/pays \$45\.00 now/)).toHaveCount(0);
  await dialog.getByRole("button", { name: "Approve refund" }).click();
  await expect(
    reviewer
      .getByRole("status")
      .filter({ hasText: /approved/i })
      .first(),
  ).toBeVisible();

  // The worker starts the execution: it is never sent to the card provider, it waits for ops.
  await expect
    .poll(
      async () =>
        (await withDb((c) => c.query(`SELECT status::text AS status FROM "Execution" WHERE "proposalId" = $1`, [id])))
          .rows[0]?.status,
      { timeout: 30_000 },
    )
    .toBe("awaiting_payout");
  const waiting = await agentCall("shop-us", "get_refund_status", { proposal_id: id });
  expect(waiting).toMatchObject({ code: "result_pending", result: { phase: "awaiting_payout" } });

  // Ops: Executions → To pay out names what to pay to whom; the execution records the transfer's reference.
  const opsPage = await browser.newPage();
  await useSession(opsPage, ops);
  await opsPage.goto("/executions");
  const list = opsPage.getByRole("table", { name: "To pay out" });
  const row = list.getByRole("row").filter({ hasText: order });
  await expect(row).toContainText("$45.00");
  await expect(row).toContainText("IBAN US•• •••• 3000");
  await (await hydrated(row.getByRole("link", { name: order }))).click();
  await expect(opsPage.getByRole("heading", { name: "Manual payout" })).toBeVisible();
  await opsPage.getByLabel("Reference of the transfer you made").fill(`TRF-${order}`);
  await opsPage.getByRole("button", { name: "Record payout" }).click();
  await expect(opsPage.getByRole("status").filter({ hasText: "Payout recorded: the refund is paid." })).toBeVisible();
  await expect(opsPage.getByText(`TRF-${order}`)).toBeVisible();

  const done = await agentCall("shop-us", "get_refund_status", { proposal_id: id });
  expect(done.code).toBe("ok");

  // The auditor's trace page exports exactly this trace, and the export holds the reviewer's approval and the
  // payout ops recorded (filed under the proposal's trace, not the reviewer's own request trace).
  const traceId = (
    await withDb((c) => c.query<{ traceId: string }>(`SELECT "traceId" FROM "Proposal" WHERE id = $1`, [id]))
  ).rows[0]!.traceId;
  const audit = await browser.newPage();
  await useSession(audit, auditor);
  // Audit events reach the searchable log through the worker's sequencer: wait until the payout is there.
  await expect
    .poll(
      async () => {
        await audit.goto(`/audit/traces/${traceId}`);
        return audit.locator('[data-action="execution:payout_recorded"]').count();
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0);
  await expect(audit.locator('[data-action="proposal:approve"]')).not.toHaveCount(0);
  const downloading = audit.waitForEvent("download");
  await audit.getByRole("link", { name: "JSON", exact: true }).click();
  const file = await (await downloading).path();
  const exported = JSON.parse(readFileSync(file, "utf8")) as { traceId: string; steps: { action: string }[] };
  expect(exported.traceId).toBe(traceId);
  const actions = exported.steps.map((s) => s.action);
  expect(actions).toEqual(
    expect.arrayContaining(["tool:prepare_refund", "proposal:approve", "execution:payout_recorded"]),
  );
  // Exactly the page's steps.
  await expect(audit.locator("ol > li[data-action]")).toHaveCount(exported.steps.length);
});
