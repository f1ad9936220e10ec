import { z } from "zod";
import { CUSTOMER_MESSAGE_MAX } from "@/lib/domain/decision-text-limits";
import { languages } from "@/lib/i18n/locales";

// The confirm page's form (app/confirm/[token]), posted to /api/confirm/<token>: what the customer decided, on which
// proposal and hash the page showed, and an optional reason when they decline (the customer's own words, bounded).

export const CONFIRM_REASON_MAX = CUSTOMER_MESSAGE_MAX;

export const customerDecisionInput = z.strictObject({
  proposal_id: z.uuid(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  decision: z.enum(["confirm", "decline"]),
  reason: z
    .string()
    .trim()
    .max(CONFIRM_REASON_MAX)
    .optional()
    .transform((r) => (r ? r : null)),
  /** The confirm page's language (the tenant's): the result page is shown in it. Not part of the decision. */
  lang: z.enum(languages).optional(),
});
export type CustomerDecisionInput = z.infer<typeof customerDecisionInput>;

/**
 * Why a confirm link was refused — stable codes, each with its page text (messages `confirm.refused.<code>`):
 * unknown, used, expired, for another proposal, or the proposal changed / closed since the link was issued.
 */
export const confirmRefusals = [
  "link_unknown",
  "link_used",
  "link_expired",
  "link_other_proposal",
  "proposal_changed",
  "proposal_closed",
  "invalid_request",
] as const;
export type ConfirmRefusal = (typeof confirmRefusals)[number];
/** What the page says after a decision was recorded. */
export const confirmOutcomes = ["confirmed", "declined"] as const;
export type ConfirmOutcome = (typeof confirmOutcomes)[number];

/** Every text of the confirm page for one action (made on the server in the tenant's language). */
export type ConfirmTexts = {
  title: string;
  heading: string;
  lead: string;
  sentence: string;
  expires: string;
  rows: { label: string; before: string | null; after: string | null; changed: boolean }[];
  columns: { field: string; value: string; before: string; after: string };
  reasonLabel: string;
  confirm: string;
  decline: string;
};
