// A proposal the agent prepared through the real gateway for a fresh paid card order (its own order, so no
// test depends on demo orders another test may have refunded). Shared by the integration tests.
import { expect } from "vitest";
import { db } from "@/lib/server/db/client";
import { ES, ana, anthropicCall, freshTrace, headersFor, send, tokenFor, webKey } from "./gateway-support";

let seq = 0;

export async function preparedForFreshOrder(amountMinor: number, opts: { tenant?: string; customer?: string; prefix?: string } = {}) {
  const tenant = opts.tenant ?? ES;
  const customer = opts.customer ?? ana;
  const t = await db().tenant.findUniqueOrThrow({ where: { slug: tenant } });
  const number = `${opts.prefix ?? "T"}-${Date.now()}-${++seq}`;
  const order = await db().order.create({
    data: { tenantId: t.id, number, customerId: customer, currency: t.currency, totalMinor: amountMinor, capturedMinor: amountMinor, items: [] },
  });
  await db().payment.create({
    data: {
      tenantId: t.id,
      orderId: order.id,
      method: "card",
      providerPaymentRef: `pi_test_${number}`,
      holderName: "Test Holder",
      display: "Visa •••• 4242",
      amountMinor,
      currency: t.currency,
    },
  });
  const a = await send(
    anthropicCall("prepare_refund", { order_id: number, reason: "damaged_item" }),
    headersFor({ key: webKey(tenant), token: await tokenFor(tenant, customer), trace: freshTrace() }),
  );
  expect(a.content.code).toBe("approval_required");
  const result = a.content.result as { proposal_id: string };
  return { number, proposal: await db().proposal.findUniqueOrThrow({ where: { id: result.proposal_id } }) };
}
