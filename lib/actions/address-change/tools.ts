// The address-change kind's agent tool (docs/action-kinds.md): prepare_address_change makes a proposal to change the
// shipping address of one of the signed-in customer's orders that has not shipped. The model gives the order and the
// new address as the customer said it; the server normalises it (ISO country, postal code checked for the country)
// and derives the rest — the address on record now (before), the order, the policy. Client-safe: the catalogue
// publishes it through the registry; how it runs is ./server.ts.
import { z } from "zod";
import { postalAddressInput } from "@/lib/domain/postal-address";
import { orderReference } from "@/lib/schemas/agent-inputs";
import { declareKindTools } from "../kind";

export const ADDRESS_CHANGE_KIND = "change_shipping_address";

export const prepareAddressChangeInput = z.strictObject({
  order_id: orderReference,
  new_address: postalAddressInput.describe(
    "The new shipping address exactly as the customer gave it (every key present; null for a line they have none of).",
  ),
});
export type PrepareAddressChangeInput = z.infer<typeof prepareAddressChangeInput>;

export const addressChangeKindTools = declareKindTools({
  kind: ADDRESS_CHANGE_KIND,
  // The queue, the proposal page and the approve dialog present it (before → after); the decided list, the inbox, the
  // execution detail, the trace page, evidence packs and notifications are still the refund's (issue #37).
  tools: {
    prepare_address_change: {
      title: "Prepare a shipping address change for approval",
      // Prepares only (a proposal; nothing changes at the shop yet); a repeat with the same address answers the same one.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Prepare a change of the shipping address of an order of the signed-in customer that has not shipped yet, for a human to approve. Give the new address exactly as the customer wrote it; the server checks it and shows a reviewer the address on record and the new one. Nothing changes until it is approved; then the shop changes the address. Call it when the customer asks to have an order shipped to another address and has given the whole new address; then tell them it awaits review. Calling it again with the same address returns the same pending proposal; with another address it replaces it.",
      input: prepareAddressChangeInput,
    },
  },
});
