import "server-only";
// What the core asks of the refund kind about one of its proposals (../kind.server.ts, KindBehaviour).
// revalidate: the order as it is now against what the refund was derived from — cancelled or fully refunded, the
// recipient or where the money is changed, or less left to refund than this proposal's amount (orderMismatch).
// executor: the payment provider's chain (lib/server/executions/execute-refund.ts, reconcile-execution.ts).
import { asRefund } from "@/lib/domain/refund-row";
import { executeRefund } from "@/lib/server/executions/execute-refund";
import { reconcileExecution } from "@/lib/server/executions/reconcile-execution";
import { orderMismatch } from "@/lib/server/proposals/proposal-guards";
import type { KindBehaviour } from "../kind.server";

export const refundBehaviour: KindBehaviour = {
  // Money leaves: always a reviewer (tenant policy may ask the customer too).
  confirmation: { floor: "reviewers" },
  revalidate: (tx, proposal, now) => orderMismatch(tx, asRefund(proposal), now),
  // The payment provider with the refund's idempotency key (a `manual` payment waits for ops' recorded payout).
  executor: { execute: executeRefund, reconcile: reconcileExecution },
  // As prepare_refund and get_refund_status name them: the order, the amount and where the money goes.
  agentAction: (row) => {
    const p = asRefund(row);
    return {
      order_id: p.orderRef,
      amount: { minor: p.amountMinor, currency: p.currency.trim() },
      recipient: { kind: p.recipientKind, display: p.recipientDisplay, holder: p.recipientHolder },
      reason: p.reason,
    };
  },
};
