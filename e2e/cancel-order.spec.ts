// An order cancellation (`cancel_order`, docs/action-kinds.md), as the people who handle it meet it in a browser.
// A reviewer opens the pending cancellation an agent prepared and reads, before approving, the order, its items and
// total and the refund that goes with it (amount and where it goes), on the page and again in the approve dialog's
// sentence; approves. Step 1, the shop's cancellation, is carried out once by the tenant's action endpoint (a
// stand-in checking the signature, as in address-change.spec.ts); step 2, the follow-up refund, reaches the payment
// sandbox, which commits it and drops the connection before answering (its webhook kept from telling the app): the
// refund is in doubt. Ops find it in the in-doubt queue, open it, press "Check now" and see it settled — one refund at
// the provider, none re-sent. The rules behind it (each step once, never the second without the first, the follow-up's
// authority) are tests/integration/cancel-order.test.ts's; this spec proves what only a browser shows.
// Runs alone (the serial project): it allows the tool and sets shop-us's action endpoint, and switches the payment
// sandbox's faults and webhook.
import { expect, test } from "@playwright/test";
import { staff, useSession } from "./support/auth";
import { freshOrder, withDb } from "./support/db";
import { agentCall } from "./support/gateway";
import {
  paymentSandbox,
  postponeReconciliation,
  refundsAtProvider,
  withoutProviderWebhooks,
} from "./support/payment-sandbox";
import { allowTool, startShopStandIn } from "./support/shop-stand-in";
import { hydrated } from "./support/ui";

const TENANT = "shop-us";
const TOOL = "prepare_order_cancellation";
const items = [{ sku: "MUG-3", name: "Coffee mug set", quantity: 2, unitMinor: 2_500 }];

const followUpOf = (parentId: string) =>
  withDb(
    async (c) =>
      (
        await c.query<{ proposalId: string; executionId: string | null; status: string | null; attempts: number }>(
          `SELECT p.id AS "proposalId", e.id AS "executionId", e.status::text AS status, e.attempts
             FROM "Proposal" p LEFT JOIN "Execution" e ON e."proposalId" = p.id
            WHERE p."parentId" = $1`,
          [parentId],
        )
      ).rows[0],
  );

test("a reviewer approves a cancellation seeing the refund that goes with it; ops settle its refund in doubt with Check now", async ({
  page,
}) => {
  await useSession(page, staff(TENANT, "admin"));
  const disallow = await allowTool(TENANT, TOOL);
  const shop = await startShopStandIn(page, TENANT, "cxl_e2e_1");
  try {
    // A fresh paid card order of the tenant's first demo customer, two mugs, and its cancellation as the agent prepares it.
    const number = await freshOrder(TENANT, 5_000);
    const pi = (
      await withDb((c) =>
        c.query<{ pi: string }>(
          `UPDATE "Order" o SET items = $1::jsonb FROM "Payment" p
            WHERE p."orderId" = o.id AND o.number = $2 RETURNING p."providerPaymentRef" AS pi`,
          [JSON.stringify(items), number],
        ),
      )
    ).rows[0]!.pi;
    const prepared = await agentCall(TENANT, TOOL, { order_id: number, reason: "changed_mind" });
    expect(prepared, JSON.stringify(prepared)).toMatchObject({ code: "approval_required" });
    const proposalId = String(prepared.result!.proposal_id);

    const inDoubt =
      await test.step("the reviewer sees the order and the refund, on the page and in the dialog, and approves", async () => {
        const reviewer = staff(TENANT, "reviewer");
        await useSession(page, reviewer);
        await page.goto(`/proposals/${proposalId}`);
        await expect(page.getByRole("heading", { level: 1 })).toContainText("Order cancellation");
        const review = page.getByTestId("kind-review");
        await expect(review.locator('[data-field="order"]')).toContainText(number);
        await expect(review.locator('[data-field="customer"]')).toContainText("John Smith");
        await expect(review.locator('[data-field="items"]')).toContainText("2 × Coffee mug set (MUG-3)");
        await expect(review.locator('[data-field="total"]')).toContainText("$50.00");
        await expect(review.locator('[data-field="status"]')).toHaveAttribute("data-changed", "true");
        await expect(review.locator('[data-field="status"]')).toContainText("cancelled");
        await expect(review.locator('[data-field="refund"]')).toContainText("$50.00");
        await expect(review.locator('[data-field="recipient"]')).toContainText("Visa •••• 4242 (John Smith)");

        await page.getByRole("button", { name: "Approve", exact: true }).click();
        const dialog = page.getByRole("dialog");
        await expect(dialog.getByTestId("confirm-text")).toContainText(
          `Cancel order ${number} and refund $50.00 to Visa •••• 4242 (John Smith).`,
        );
        const password = dialog.getByLabel("Password");
        if (await password.count()) await password.fill(reviewer.password);

        // The provider will commit the refund and drop the connection before it answers, and its webhook will not tell
        // the app: step 2's outcome stays unknown. The reconciler's own next look is postponed, so it waits for ops.
        await paymentSandbox().addFault({ kind: "drop_after_commit", paymentIntent: pi });
        const inDoubt = await withoutProviderWebhooks(async () => {
          await dialog.getByRole("button", { name: "Approve change" }).click();
          // Step 1 done at the shop, once; the page says so with the shop's reference.
          await expect(page.getByTestId("outcome")).toContainText("Approved and done: the shop confirmed it.", {
            timeout: 30_000,
          });
          await expect(page.getByTestId("kind-execution")).toContainText("cxl_e2e_1");
          await expect.poll(async () => (await followUpOf(proposalId))?.status, { timeout: 30_000 }).toBe("unknown");
          const followUp = (await followUpOf(proposalId))!;
          await postponeReconciliation(followUp.executionId!);
          return followUp;
        });
        expect(shop.received).toHaveLength(1);
        expect(shop.received[0]!.key).toBe(`cancel_order-${proposalId}`);
        expect(shop.received[0]!.body).toMatchObject({
          kind: "cancel_order",
          subject: { type: "order", ref: number },
          params: { reason: "changed_mind" },
        });
        expect(await refundsAtProvider(pi)).toBe(1); // committed, its answer lost
        return inDoubt;
      });

    await test.step("ops find the refund in doubt, open it, press Check now and see it settled", async () => {
      const executionId = inDoubt.executionId!;
      await useSession(page, staff(TENANT, "ops"));
      await page.goto("/executions");
      const row = page.getByRole("table", { name: "In-doubt queue" }).locator(`tr[data-execution-id="${executionId}"]`);
      await expect(row).toContainText(number);
      await expect(row).toContainText("$50.00");
      await expect(row).toContainText("Unknown outcome");
      await (await hydrated(row.getByRole("link", { name: `Execution details for order ${number}` }))).click();
      await expect(page).toHaveURL(new RegExp(`/executions/${executionId}$`));
      await expect(page.getByRole("heading", { level: 1 })).toContainText(number);
      await expect(page.getByTestId("idempotency-key")).toHaveText(`refund-${inDoubt.proposalId}`);
      // The one thing that says why this refund exists: the reason it was built with.
      await expect(page.getByText("Cancelled order", { exact: true })).toBeVisible();

      await page.getByRole("button", { name: `Check now: order ${number}` }).click();
      await expect(
        page.locator("[data-sonner-toast]", { hasText: `Order ${number}: settled — the refund succeeded.` }),
      ).toBeVisible({ timeout: 30_000 });
      await expect(page.getByRole("button", { name: `Check now: order ${number}` })).toHaveCount(0);
      const timeline = page.getByRole("list", { name: "Timeline" });
      await expect(timeline.locator('li[data-action="execution:succeeded"]')).toBeVisible();
      expect(await followUpOf(proposalId)).toMatchObject({ status: "succeeded", attempts: 1 }); // found, not re-sent
      expect(await refundsAtProvider(pi)).toBe(1);
    });
  } finally {
    await paymentSandbox().clearFaults();
    await shop.close();
    await disallow();
  }
});
