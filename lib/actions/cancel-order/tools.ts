// The order-cancellation kind's agent tool (docs/action-kinds.md, the worked example): prepare_order_cancellation
// makes a proposal to cancel one of the signed-in customer's orders that has not shipped, together with the refund
// that goes with it. The model gives only the order and why; the server derives the rest — the order's items and
// total, the amount still refundable and where the money goes (the original payment), the policy. Client-safe: the
// catalogue publishes it through the registry; how it runs is ./server.ts.
import { z } from "zod";
import { orderReference } from "@/lib/schemas/agent-inputs";
import { declareKindTools } from "../kind";

export const CANCEL_ORDER_KIND = "cancel_order";

export const cancellationReasons = [
  "changed_mind",
  "ordered_by_mistake",
  "delivery_too_slow",
  "duplicate_order",
  "other",
] as const;

export const prepareOrderCancellationInput = z.strictObject({
  order_id: orderReference,
  reason: z
    .enum(cancellationReasons)
    .describe("Why the customer wants to cancel, as they explained it. Use other when nothing else fits."),
});
export type PrepareOrderCancellationInput = z.infer<typeof prepareOrderCancellationInput>;

export const cancelOrderKindTools = declareKindTools({
  kind: CANCEL_ORDER_KIND,
  auditEvents: ["execution:follow_up"],
  tools: {
    prepare_order_cancellation: {
      title: "Prepare an order cancellation for approval",
      // Prepares only (a proposal; nothing is cancelled or paid yet); a repeat answers the same pending proposal.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Prepare the cancellation of an order of the signed-in customer that has not shipped yet, for a human to approve. The server works out the refund that goes with it (everything still refundable, to the original payment) and shows a reviewer the order, its items and the refund. Nothing is cancelled or paid until it is approved; then the shop cancels the order and the refund is paid. Call it once when the customer asks to cancel; then tell them it awaits review. Calling it again returns the same pending proposal.",
      input: prepareOrderCancellationInput,
    },
  },
});
