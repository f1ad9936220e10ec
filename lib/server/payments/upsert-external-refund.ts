import "server-only";
import type { RefundStatus } from "@/lib/domain/refund-state";
import type { Tx } from "@/lib/server/db/client";

/** What a refund made outside this product says of itself; the payment and time only where the caller may move them. */
type ExternalRefundFields = {
  amountMinor: number;
  currency: string;
  status: RefundStatus;
  paymentId?: string;
  createdAt?: Date;
};

/**
 * Stores a refund made outside this product — seen in the provider's webhooks or reported by the tenant's order
 * system (docs/systems-of-record.md) — under the provider's refund id: created with origin `external`, or brought
 * up to date in place (`update`: only the fields given there change). The caller first checks that the refund is
 * not one of ours (origin `local`): this would overwrite it.
 */
export function upsertExternalRefund(
  tx: Tx,
  refund: { tenantId: string; orderId: string; paymentId: string; providerRefundId: string; createdAt?: Date },
  update: ExternalRefundFields,
) {
  const { tenantId, providerRefundId } = refund;
  return tx.refund.upsert({
    where: { tenantId_providerRefundId: { tenantId, providerRefundId } },
    create: { ...refund, origin: "external", reason: "made outside this product", ...update },
    update,
  });
}
