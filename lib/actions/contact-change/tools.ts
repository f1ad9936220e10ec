// The contact-change kind's agent tool (docs/action-kinds.md): prepare_contact_change makes a proposal to change the
// e-mail address (or, once the system of record holds one, the phone number) of the signed-in customer — the end user
// the token names, never a customer the model picks. The model gives the field and the new value as the customer said
// it; the server validates it (./contact-value.ts) and derives the rest — the customer, the value on record now.
// Client-safe: the catalogue publishes it through the registry; how it runs is ./server.ts.
import { z } from "zod";
import { declareKindTools } from "../kind";

export const CONTACT_CHANGE_KIND = "update_customer_contact";

/** The contact fields the tool names. The system of record (Customer) holds only `email` today: see ./prepare.ts. */
export const CONTACT_FIELDS = ["email", "phone"] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

export const prepareContactChangeInput = z.strictObject({
  field: z.enum(CONTACT_FIELDS).describe("Which contact detail the customer wants changed."),
  new_value: z
    .string()
    .min(1)
    .max(320)
    .describe(
      "The new value exactly as the customer gave it: an e-mail address, or a phone number in international form (+ and the country code).",
    ),
});
export type PrepareContactChangeInput = z.infer<typeof prepareContactChangeInput>;

export const contactChangeKindTools = declareKindTools({
  kind: CONTACT_CHANGE_KIND,
  tools: {
    prepare_contact_change: {
      title: "Prepare a change of the customer's contact details for approval",
      // Prepares only (a proposal; nothing changes at the shop yet); a repeat with the same value answers the same one.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Prepare a change of the signed-in customer's own e-mail address or phone number, for a human to approve. Give the new value exactly as the customer wrote it (a phone number with its country code, e.g. +34 612 34 56 78); the server checks it and shows a reviewer the current value (masked) and the new one. Nothing changes until it is approved; then the shop changes it. Call it when the customer asks to change their own e-mail address or phone number and has given the new one; then tell them it awaits review. Calling it again with the same value returns the same pending proposal; with another value it replaces it.",
      input: prepareContactChangeInput,
    },
  },
});
