import "server-only";
// How the order-cancellation kind's tool runs on the gateway (the declaration is ./tools.ts). auditClear: the order
// reference and the reason stay in clear; the refund's recipient is never in the audit's arguments (it is derived).
import type { KindToolHandlers } from "../kind.server";
import { prepareOrderCancellation } from "./prepare";
import type { cancelOrderKindTools } from "./tools";

export const cancelOrderToolHandlers = {
  prepare_order_cancellation: {
    run: prepareOrderCancellation,
    needsCustomer: true,
    auditClear: ["order_id", "reason"],
  },
} satisfies KindToolHandlers<typeof cancelOrderKindTools>;
