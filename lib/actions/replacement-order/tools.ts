// The replacement-order kind's agent tool (docs/action-kinds.md): prepare_replacement_order makes a proposal to send
// the signed-in customer, free of charge, goods of one of their orders that arrived damaged or defective, or never
// arrived. The model gives the order, the SKUs and quantities the customer names, and why; the server checks them
// against what the order holds and what was already replaced, and derives the rest — the items' names, the price (0),
// the shipping address of the original order, the policy. Client-safe: the catalogue publishes it through the
// registry; how it runs is ./server.ts.
import { z } from "zod";
import { orderReference } from "@/lib/schemas/agent-inputs";
import { declareKindTools } from "../kind";

export const REPLACEMENT_ORDER_KIND = "create_order";

/** Why the goods are replaced. Only `lost_in_transit` allows an order that shipped and was never delivered. */
export const replacementReasons = ["damaged", "defective", "lost_in_transit", "missing_items", "other"] as const;
export type ReplacementReason = (typeof replacementReasons)[number];

/** The most lines and units one replacement may name (the server checks them against the order anyway). */
export const MAX_REPLACEMENT_LINES = 50;
export const MAX_REPLACEMENT_QUANTITY = 1_000;

export const prepareReplacementOrderInput = z.strictObject({
  order_id: orderReference,
  items: z
    .array(
      z.strictObject({
        sku: z.string().min(1).max(100).describe("The SKU of an item of that order, exactly as lookup_order shows it."),
        quantity: z
          .int()
          .min(1)
          .max(MAX_REPLACEMENT_QUANTITY)
          .describe("How many units of that SKU to replace (no more than the order holds)."),
      }),
    )
    .min(1)
    .max(MAX_REPLACEMENT_LINES)
    .describe(
      `The items to replace: each SKU once, with the number of units the customer needs replaced. 1 to ${MAX_REPLACEMENT_LINES} lines. Only items of this order; the server refuses anything else, or more than is left to replace.`,
    ),
  reason: z
    .enum(replacementReasons)
    .describe(
      "Why the customer needs a replacement: damaged or defective goods, goods lost in transit, items missing from the parcel. Use other when nothing else fits.",
    ),
});
export type PrepareReplacementOrderInput = z.infer<typeof prepareReplacementOrderInput>;

export const replacementOrderKindTools = declareKindTools({
  kind: REPLACEMENT_ORDER_KIND,
  auditEvents: ["execution:order_created"],
  tools: {
    prepare_replacement_order: {
      title: "Prepare a free replacement order for approval",
      // Prepares only (a proposal; nothing is ordered yet); a repeat with the same items answers the same proposal.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Prepare a free replacement of items of an order of the signed-in customer that were delivered damaged, defective or incomplete, or that were lost in transit, for a human to approve. Call it when the customer reports such a problem and has said which items (SKUs from lookup_order) and how many. The server checks the items against the order and what was already replaced, and ships the replacement, at no charge, to the original order's shipping address. Nothing is ordered until it is approved; then the shop creates the replacement order; get_action_status says when it is done. Calling it again with the same items returns the same pending proposal; other items replace it.",
      input: prepareReplacementOrderInput,
    },
  },
});
