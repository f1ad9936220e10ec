import { z } from "zod";
import { INT4_MAX, storable } from "./stored";
import { decidedStatuses } from "@/lib/domain/proposal-state";
import {
  COMMENT_MAX,
  CUSTOMER_MESSAGE_MAX,
  CUSTOMER_MESSAGE_MIN,
  INTERNAL_NOTE_MAX,
} from "@/lib/domain/decision-text-limits";
import { authenticationResponseInput } from "./passkeys";

const proposalId = z.uuid({ message: "Not a proposal id." });
const hash = z.string().regex(/^[0-9a-f]{64}$/, "Expected the 64-character lowercase hex hash shown to you.");

/**
 * Re-authentication sent with an approval: a password when the session is older than the step-up window,
 * or a passkey assertion whose challenge is derived from the proposal hash (always verified when sent).
 */
export const stepUpInput = z.discriminatedUnion("method", [
  z.object({ method: z.literal("password"), password: z.string().min(1).max(1024) }),
  z.object({ method: z.literal("passkey"), response: authenticationResponseInput }),
]);
export type StepUpInput = z.infer<typeof stepUpInput>;

export const approveProposalInput = z.strictObject({
  proposalId,
  hash,
  stepUp: stepUpInput.optional(),
});
export type ApproveProposalInput = z.infer<typeof approveProposalInput>;

const customerMessageRequired = `Give the message for the customer (at least ${CUSTOMER_MESSAGE_MIN} characters).`;
const customerMessage = storable(
  z.string().trim().min(CUSTOMER_MESSAGE_MIN, customerMessageRequired).max(CUSTOMER_MESSAGE_MAX),
);
const internalNote = storable(z.string().trim().max(INTERNAL_NOTE_MAX));

/**
 * A rejection: `customerMessage` is what the agent (and so the customer) may read; `internalNote` is for
 * staff only. `reason` is the former name of `customerMessage`, still accepted (one of the two is required).
 */
export const rejectProposalInput = z
  .strictObject({
    proposalId,
    hash,
    customerMessage: customerMessage.optional(),
    reason: customerMessage.optional(),
    internalNote: internalNote.optional(),
  })
  .refine((r) => r.customerMessage !== undefined || r.reason !== undefined, {
    path: ["customerMessage"],
    message: customerMessageRequired,
  })
  .transform(({ reason, customerMessage, internalNote, ...rest }) => ({
    ...rest,
    customerMessage: (customerMessage ?? reason) as string,
    internalNote: internalNote ? internalNote : null,
  }));
export type RejectProposalInput = z.output<typeof rejectProposalInput>;

/** At most this many proposals are rejected in one request (each is still its own decision). */
export const BULK_REJECT_MAX = 50;

/**
 * Rejecting several pending proposals with one message for the customer (and an optional internal note):
 * each proposal carries the hash the reviewer saw, and each becomes its own rejection (docs/design.md).
 */
export const bulkRejectProposalsInput = z
  .strictObject({
    proposals: z
      .array(z.strictObject({ proposalId, hash }))
      .min(1, "Select at least one proposal.")
      .max(BULK_REJECT_MAX, `At most ${BULK_REJECT_MAX} proposals at once.`),
    customerMessage,
    internalNote: internalNote.optional(),
  })
  .refine((r) => new Set(r.proposals.map((p) => p.proposalId)).size === r.proposals.length, {
    path: ["proposals"],
    message: "Each proposal may be listed once.",
  });
export type BulkRejectProposalsInput = z.infer<typeof bulkRejectProposalsInput>;

/** C0 controls and DEL, except tab, line feed and carriage return (a comment may have lines). */
const isControlCharacter = (ch: string) => {
  const code = ch.charCodeAt(0);
  return (code < 0x20 && ch !== "\t" && ch !== "\n" && ch !== "\r") || code === 0x7f;
};

export { COMMENT_MAX };

/** A staff comment on a proposal (docs/design.md "Comments"); stored redacted. */
export const addProposalCommentInput = z.strictObject({
  proposalId,
  body: storable(
    z
      .string()
      .trim()
      .min(1, "Write a comment first.")
      .max(COMMENT_MAX, `At most ${COMMENT_MAX} characters.`)
      .refine((s) => ![...s].some(isControlCharacter), "Control characters are not allowed."),
  ),
});
export type AddProposalCommentInput = z.infer<typeof addProposalCommentInput>;

export const queueFilterInput = z.strictObject({
  cursor: storable(z.string().max(200)).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  channel: storable(z.string().max(64)).optional(),
  flag: z.enum(["duplicate", "velocity", "two_approvals"]).optional(),
  minMinor: z.coerce.number().int().min(0).max(INT4_MAX).optional(),
  maxMinor: z.coerce.number().int().min(0).max(INT4_MAX).optional(),
});
export type QueueFilterInput = z.infer<typeof queueFilterInput>;

export const reprepareProposalInput = z.strictObject({ proposalId });
export type ReprepareProposalInput = z.infer<typeof reprepareProposalInput>;

export const editProposalAmountInput = z.strictObject({
  proposalId,
  hash,
  amountMinor: z.number().int("Whole minor units only (for example 1250 for 12.50).").positive().max(INT4_MAX),
});
export type EditProposalAmountInput = z.infer<typeof editProposalAmountInput>;

/** The "Decided" view: finished proposals, searched by order, customer, amount or reviewer. */
// Defined in lib/domain (the client imports it from there: this module would bring zod to the browser).
export { decidedStatuses };
export const decidedFilterInput = z.strictObject({
  q: storable(z.string().trim().max(100)).optional(),
  status: z.enum(decidedStatuses).optional(),
  page: z.coerce.number().int().min(1).max(1000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});
export type DecidedFilterInput = z.infer<typeof decidedFilterInput>;
