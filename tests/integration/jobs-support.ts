// Helpers for the job tests (tests/integration/jobs-*.test.ts): extra orders for demo customers and
// proposals inserted directly, so a test controls status and expiry exactly.
import { createHash, randomUUID } from "node:crypto";
import { db } from "@/lib/server/db/client";
import type { ProposalStatus } from "@/lib/server/db/generated/client";
import { customerId } from "../../scripts/lib/demo-data";

export const ES = "tienda-es";
export const US = "shop-us";

export async function tenantIdOf(slug: string): Promise<string> {
  return (await db().tenant.findUniqueOrThrow({ where: { slug }, select: { id: true } })).id;
}

/** A new paid card order (with its payment) for a demo customer; proposals allow one pending per order. */
export async function makeOrder(slug: string, customerKey: string, totalMinor = 10_000) {
  const tenant = await db().tenant.findUniqueOrThrow({ where: { slug } });
  const cid = customerId(slug, customerKey);
  const number = `ORD-T${randomUUID().slice(0, 8)}`;
  const order = await db().order.create({
    data: { tenantId: tenant.id, number, customerId: cid, currency: tenant.currency, totalMinor, capturedMinor: totalMinor, items: [] },
  });
  const payment = await db().payment.create({
    data: {
      tenantId: tenant.id,
      orderId: order.id,
      method: "card",
      providerPaymentRef: `pi_test_${randomUUID().replace(/-/g, "")}`,
      holderName: "Ana García",
      display: "Visa •••• 4242",
      amountMinor: totalMinor,
      currency: tenant.currency,
    },
  });
  return { tenant, order, payment, customerId: cid };
}

export async function makeProposal(slug: string, opts: { status?: ProposalStatus; expiresAt: Date; customerKey?: string; amountMinor?: number }) {
  const { tenant, order, payment, customerId: cid } = await makeOrder(slug, opts.customerKey ?? (slug === ES ? "ana" : "john"), opts.amountMinor ?? 10_000);
  const id = randomUUID();
  return db().proposal.create({
    data: {
      id,
      tenantId: tenant.id,
      orderId: order.id,
      customerId: cid,
      paymentId: payment.id,
      amountMinor: opts.amountMinor ?? 10_000,
      currency: tenant.currency,
      recipientKind: "card",
      recipientRef: payment.providerPaymentRef,
      recipientHolder: "Ana García",
      recipientDisplay: "Visa •••• 4242",
      reason: "damaged_item",
      status: opts.status ?? "pending_approval",
      hash: createHash("sha256").update(id).digest("hex"),
      expiresAt: opts.expiresAt,
      traceId: `test-trace-${id}`,
    },
  });
}

export const minutesFromNow = (m: number) => new Date(Date.now() + m * 60_000);
