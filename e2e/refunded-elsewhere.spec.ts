// The demo's refund made outside the product (docs/systems-of-record.md "Refunds made elsewhere"): the demo start
// refunded 25.00 of tienda-es ORD-1003 at the sandbox provider, as a shop's own dashboard would; the sandbox's signed
// refund.created reached the app's webhook, which put it into the ledger with origin external. An agent preparing a
// refund of that order gets what is really left, and the reviewer sees the refund made elsewhere in "where the
// amount comes from" on the proposal page. Nothing here writes the ledger: the spec only reads it.
import { expect, test } from "@playwright/test";
import { agentKey, customerId, demoRefundElsewhere, demoTenants, mintEndUserToken } from "../scripts/lib/demo-data";
import { baseURL } from "./support/gateway";
import { useSession, staff } from "./support/auth";
import { withDb } from "./support/db";

const { tenantSlug, orderNumber, amountMinor } = demoRefundElsewhere;

const externalRefunds = () =>
  withDb(
    async (c) =>
      (
        await c.query<{ amountMinor: number; status: string; providerRefundId: string }>(
          `SELECT r."amountMinor", r.status, r."providerRefundId" FROM "Refund" r JOIN "Order" o ON o.id = r."orderId" JOIN "Tenant" t ON t.id = o."tenantId"
            WHERE t.slug = $1 AND o.number = $2 AND r.origin = 'external'`,
          [tenantSlug, orderNumber],
        )
      ).rows,
  );

test("the reviewer sees the refund made elsewhere in 'where the amount comes from', and the agent was offered only what is left", async ({
  page,
}) => {
  // The sandbox delivers its webhook as soon as the app listens (it retries until then).
  await expect.poll(externalRefunds, { timeout: 90_000, intervals: [500, 1000, 2000] }).toHaveLength(1);
  const [refund] = await externalRefunds();
  expect(refund).toMatchObject({ amountMinor, status: "succeeded" });
  expect(refund!.providerRefundId).toMatch(/^re_/);
  const audited = await withDb(
    async (c) =>
      (
        await c.query(
          `SELECT count(*)::int AS n FROM "AuditEvent" WHERE action = 'payments:external_refund' AND data->>'refundRef' = $1`,
          [refund!.providerRefundId],
        )
      ).rows[0].n as number,
  );
  expect(audited).toBe(1);

  // The order's customer (not agent:demo's) asks for a refund through the real gateway.
  const tenant = demoTenants.find((t) => t.slug === tenantSlug)!;
  const owner = tenant.customers.find((c) => c.orders.some((o) => o.number === orderNumber))!;
  const order = owner.orders.find((o) => o.number === orderNumber)!;
  const left = order.totalMinor - (order.refundedMinor ?? 0) - amountMinor;
  const res = await fetch(`${baseURL}/api/agent/tool-calls`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${agentKey(tenantSlug, "web_support")}`,
      "x-end-user-token": await mintEndUserToken(tenantSlug, "web_support", customerId(tenantSlug, owner.key)),
    },
    body: JSON.stringify({
      type: "tool_use",
      id: "toolu_elsewhere",
      name: "prepare_refund",
      input: { order_id: orderNumber, reason: "damaged_item" },
    }),
  });
  const content = JSON.parse(((await res.json()) as { content: string }).content) as {
    code: string;
    result?: { proposal_id: string; amount: { minor: number } };
  };
  expect(content.code).toBe("approval_required");
  expect(content.result!.amount.minor).toBe(left);

  await useSession(page, staff(tenantSlug, "reviewer"));
  await page.goto(`/proposals/${content.result!.proposal_id}`);
  const derivation = page.getByTestId("derivation");
  await expect(derivation).toContainText(String(order.totalMinor));
  await expect(derivation).toContainText(String((order.refundedMinor ?? 0) + amountMinor));
  await expect(derivation).toContainText(String(left));
  const elsewhere = page.getByTestId("derivation-elsewhere");
  await expect(elsewhere).toBeVisible();
  await expect(elsewhere).toContainText(/25[.,]00/);
  await expect(page.getByText(/^(refunded elsewhere|reembolsado en otro lugar)$/)).toBeVisible();
});
