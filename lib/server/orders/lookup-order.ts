import "server-only";
import type { LookupOrderInput } from "@/lib/schemas/tools";
import { holdingRefundStatuses, refundStatus } from "@/lib/domain/refund-state";
import type { Sql } from "@/lib/server/db/sql";
import type { HandlerResult, ToolContext } from "@/lib/server/agent/tool-context";
import { failure } from "@/lib/domain/agent-protocol";
import { openProposalSql, refundableLeft, refundableLeftLive } from "@/lib/server/proposals/refundable-left";
import { orderNotFound } from "./order-not-found";
import { asRefund } from "@/lib/domain/refund-row";

/** lookup_order: one order of the verified customer, scoped by tenant and customer in the query itself. */
export async function lookupOrder(tx: Sql, input: LookupOrderInput, ctx: ToolContext): Promise<HandlerResult> {
  if (!ctx.customerId) throw new Error("lookup_order needs a verified customer");
  const now = new Date();
  const found = await tx
    .selectFrom("Order")
    .select([
      "id",
      "tenantId",
      "number",
      "currency",
      "totalMinor",
      "capturedMinor",
      "status",
      "fulfilment",
      "items",
      "placedAt",
    ])
    .where("tenantId", "=", ctx.caller.tenantId)
    .where("number", "=", input.order_id)
    .where("customerId", "=", ctx.customerId)
    .executeTakeFirst();
  if (!found) return { outcome: orderNotFound(input.order_id) };
  const order = {
    ...found,
    // The order's original payment (the first one): what the refund goes back to.
    payment: await tx
      .selectFrom("Payment")
      .select(["method", "display", "provider", "providerPaymentRef", "currency", "amountMinor"])
      .where("orderId", "=", found.id)
      .orderBy("createdAt", "asc")
      .limit(1)
      .executeTakeFirst(),
    refunds: await tx
      .selectFrom("Refund")
      .select(["amountMinor", "status", "origin"])
      .where("orderId", "=", found.id)
      .execute(),
    // Open as of now: a pending proposal past its expiry is neither listed nor held back.
    proposals: await tx
      .selectFrom("Proposal as p")
      .select(["p.id", "p.status", "p.amountMinor", "p.expiresAt"])
      .where("p.orderId", "=", found.id)
      .where("p.kind", "=", "refund")
      .where(openProposalSql(now))
      .orderBy("p.createdAt", "desc")
      .execute(),
  };

  const refunded = order.refunds
    .filter((r) => r.status === refundStatus.succeeded)
    .reduce((s, r) => s + r.amountMinor, 0);
  const pendingRefunds = order.refunds
    .filter((r) => r.status === refundStatus.pending || r.status === refundStatus.requiresAction)
    .reduce((s, r) => s + r.amountMinor, 0);
  // Refunds made outside this product (the shop's back office, the provider's dashboard): already in the sums above.
  const elsewhere = order.refunds
    .filter((r) => r.origin === "external" && holdingRefundStatuses.includes(r.status))
    .reduce((s, r) => s + r.amountMinor, 0);
  // The provider as the truth for a payment it holds (docs/systems-of-record.md); the ledger otherwise.
  const first = order.payment;
  const left = first
    ? await refundableLeftLive(
        tx,
        {
          tenantId: order.tenantId,
          orderId: order.id,
          provider: first.provider,
          paymentRef: first.providerPaymentRef,
          ledgerCapturedMinor: order.capturedMinor,
          payment: { currency: first.currency, capturedMinor: first.amountMinor },
        },
        { now },
      )
    : {
        ok: true as const,
        live: false,
        capturedMinor: order.capturedMinor,
        ...(await refundableLeft(tx, order, { now })),
      };
  if (!left.ok && left.reason === "provider_unavailable") {
    return {
      outcome: failure(
        "temporarily_unavailable",
        "The payment provider did not answer, so the refundable amount cannot be read now. Try again once after the wait.",
        {
          order_id: order.number,
          retry_after_seconds: 30,
        },
      ),
      audit: { order: order.number, provider: "unavailable" },
    };
  }
  const m = (minor: number) => ({ minor, currency: order.currency });
  const items = Array.isArray(order.items)
    ? (order.items as { sku?: string; name?: string; quantity?: number; unitMinor?: number }[])
    : [];
  return {
    outcome: {
      code: "ok",
      result: {
        order_id: order.number,
        status: order.status,
        // Whether it has left the warehouse (a shipped order can no longer be cancelled or re-addressed).
        fulfilment: order.fulfilment,
        placed_at: order.placedAt.toISOString(),
        total: m(order.totalMinor),
        captured: m(left.ok ? left.capturedMinor : order.capturedMinor),
        refunded: m(refunded),
        refunds_in_progress: m(pendingRefunds),
        refunded_elsewhere: m(elsewhere),
        refundable: m(left.ok ? left.leftMinor : 0),
        items: items.map((i) => ({
          sku: i.sku ?? null,
          name: i.name ?? null,
          quantity: i.quantity ?? null,
          unit_price: m(i.unitMinor ?? 0),
        })),
        payment: first ? { method: first.method, display: first.display } : null,
        open_refund_proposals: order.proposals.map(asRefund).map((p) => ({
          proposal_id: p.id,
          status: p.status,
          amount: m(p.amountMinor),
          expires_at: p.expiresAt.toISOString(),
        })),
      },
    },
    audit: { order: order.number },
  };
}
