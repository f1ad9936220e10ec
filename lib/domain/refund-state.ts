// Our own ledger of refunds (the `Refund` table, prisma `RefundStatus`): one home for its state names.
export const refundStatus = { pending: "pending", succeeded: "succeeded", failed: "failed" } as const;
export type RefundStatus = (typeof refundStatus)[keyof typeof refundStatus];
