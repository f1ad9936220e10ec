// The refund kind's agent tools (docs/action-kinds.md): prepare_refund makes a proposal from an order id and a
// reason — the amount, currency and recipient are derived by the server from the order and its payment, never
// taken from the model —, get_refund_status reads it (and waits for a change). Client-safe: the catalogue
// (lib/schemas/tools.ts) publishes these through the registry; how they run is ./server.ts.
import { z } from "zod";
import { orderReference, waitSecondsInput } from "@/lib/schemas/agent-inputs";
import { declareKindTools } from "../kind";

export const refundReasons = [
  "damaged_item",
  "not_received",
  "wrong_item",
  "duplicate_charge",
  "cancelled_order",
  "other",
] as const;
export const prepareRefundInput = z.strictObject({
  order_id: orderReference,
  reason: z
    .enum(refundReasons)
    .describe("Why the customer wants the refund, as they explained it. Use other when nothing else fits."),
});
export type PrepareRefundInput = z.infer<typeof prepareRefundInput>;

export const getRefundStatusInput = z.strictObject({
  proposal_id: z.uuid().describe("The proposal id that prepare_refund returned."),
  wait_seconds: waitSecondsInput({ status: "the refund's", busy: "being paid", unchanged: "refund" }),
});
export type GetRefundStatusInput = z.infer<typeof getRefundStatusInput>;

export const refundKindTools = declareKindTools({
  kind: "refund",
  tools: {
    prepare_refund: {
      title: "Prepare a refund for approval",
      // Prepares only (a proposal; nothing is paid); a repeat answers the same open proposal.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Prepare a refund of an order of the signed-in customer for a human to approve. The server decides the amount (everything still refundable) and the recipient (the original payment); nothing is paid yet. Call it once when the customer asks for a refund and the order is theirs; then tell them it awaits review. Calling it again returns the same pending proposal.",
      input: prepareRefundInput,
    },
    get_refund_status: {
      title: "Get a refund's status",
      annotations: { readOnlyHint: true, openWorldHint: false },
      description:
        "Get the status of a refund proposal prepared earlier (awaiting approval, in progress, done, rejected with the reviewer's reason, expired, replaced by another one). Call it when the customer asks how their refund is going, or with wait_seconds to wait for a reviewer's decision. Never re-submit a refund instead.",
      input: getRefundStatusInput,
    },
  },
});
