import "server-only";
import { AppError } from "@/lib/domain/outcome";
import type { PostalAddress } from "@/lib/domain/postal-address";
import { parseInput } from "@/lib/domain/validation";
import { orderNumber } from "@/lib/schemas/orders-api";
import { sqlOf } from "@/lib/server/db/sql";
import type { IntegrationCaller } from "@/lib/server/integrations/authenticate-integration-key";
import { refundableLeft } from "@/lib/server/proposals/refundable-left";
import { transaction } from "@/lib/server/db/transaction";

/**
 * `GET /api/v1/orders/{number}`: the stored order of the caller's tenant, in the PUT's shape, with what is left to
 * refund now. Another tenant's order is simply not found (tenant in the `where`).
 */
export async function getOrder(caller: IntegrationCaller, rawNumber: string, now = new Date()) {
  const number = parseInput(orderNumber, rawNumber, "The order number in the path is not valid.");
  return transaction(async (tx) => {
    const o = await tx.order.findUnique({
      where: { tenantId_number: { tenantId: caller.tenantId, number } },
      include: {
        customer: { select: { id: true, email: true, name: true, phone: true } },
        payments: { orderBy: { createdAt: "asc" } },
        refunds: { orderBy: { createdAt: "asc" }, include: { payment: { select: { providerPaymentRef: true } } } },
      },
    });
    if (!o) throw new AppError("not_found", `No order ${JSON.stringify(number)} in this shop.`, { number });
    const left = await refundableLeft(sqlOf(tx), o, { now });
    const items = Array.isArray(o.items)
      ? (o.items as { sku: string; name: string; quantity: number; unitMinor: number }[])
      : [];
    return {
      number: o.number,
      customer: o.customer,
      currency: o.currency,
      total_minor: o.totalMinor,
      captured_minor: o.capturedMinor,
      status: o.status,
      fulfilment: o.fulfilment,
      shipping_address: wireAddress(o.shippingAddress),
      placed_at: o.placedAt.toISOString(),
      items: items.map((i) => ({ sku: i.sku, name: i.name, quantity: i.quantity, unit_minor: i.unitMinor })),
      payments: o.payments.map((p) => ({
        provider: p.provider,
        reference: p.providerPaymentRef,
        method: p.method,
        captured_minor: p.amountMinor,
        holder: p.holderName,
        display: p.display,
      })),
      refunds: o.refunds.map((r) => ({
        reference: r.providerRefundId,
        amount_minor: r.amountMinor,
        status: r.status,
        origin: r.origin,
        created_at: r.createdAt.toISOString(),
        payment_reference: r.payment.providerPaymentRef,
      })),
      refundable: { minor: left.leftMinor, currency: o.currency },
    };
  });
}

/** A stored (normalised) address in the wire's spelling, or null. */
function wireAddress(stored: unknown) {
  if (!stored || typeof stored !== "object") return null;
  const a = stored as PostalAddress;
  return {
    name: a.name,
    line1: a.line1,
    line2: a.line2,
    city: a.city,
    postal_code: a.postalCode,
    region: a.region,
    country: a.country,
  };
}
