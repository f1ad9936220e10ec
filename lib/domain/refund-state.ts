// Our own ledger of refunds (the `Refund` table, prisma `RefundStatus`): one home for its state names.
// The statuses are the provider's (Stripe's refund statuses): a refund that is pending, waiting for the
// customer's action or succeeded has left — or is leaving — the merchant; a failed or canceled one has not.
export const refundStatus = {
  pending: "pending",
  succeeded: "succeeded",
  failed: "failed",
  requiresAction: "requires_action",
  canceled: "canceled",
} as const;
export type RefundStatus = (typeof refundStatus)[keyof typeof refundStatus];

/** The refunds that hold money back: counted against what is left to refund, wherever they were made. */
export const holdingRefundStatuses: readonly RefundStatus[] = [
  refundStatus.pending,
  refundStatus.requiresAction,
  refundStatus.succeeded,
];
