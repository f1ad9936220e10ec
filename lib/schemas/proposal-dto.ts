// What the proposal endpoints answer (DTOs): the zod schemas are the contract between the server use cases
// (lib/server/proposals) and the client (lib/queries validates every response with them), so client code
// never imports a type from lib/server.
import { z } from "zod";
import { proposalStatuses, proposalStatus } from "@/lib/domain/proposal-state";

export const proposalStatusSchema = z.enum(proposalStatuses as [string, ...string[]]).pipe(z.custom<(typeof proposalStatuses)[number]>());

const iso = z.string();

/** "Previously rejected": the newest rejection of a proposal for the same order before this one (reason, who, when). */
export const previousRejectionDto = z.object({ proposalId: z.string(), reason: z.string().nullable(), by: z.string().nullable(), at: iso.nullable() });
export type PreviousRejection = z.infer<typeof previousRejectionDto>;

/** What a proposal possibly duplicates: a live proposal or an earlier refund of the same customer, same order or amount. */
export const duplicateOfDto = z.object({
  kind: z.enum(["proposal", "refund"]),
  id: z.string(),
  orderNumber: z.string(),
  amountMinor: z.number().int(),
  createdAt: iso,
});
export type DuplicateOf = z.infer<typeof duplicateOfDto>;

/** The advisory "I'm reviewing this" claim while it lasts: who holds it, whether it is the viewer, until when. */
export const claimDto = z.object({ by: z.string(), mine: z.boolean(), until: iso });
export type Claim = z.infer<typeof claimDto>;

export const claimResultDto = z.object({
  proposalId: z.string(),
  claimedBy: z.object({ id: z.string(), name: z.string() }),
  until: iso,
  mine: z.literal(true),
});
export type ClaimResult = z.infer<typeof claimResultDto>;

export const releaseResultDto = z.object({ proposalId: z.string(), released: z.boolean() });

export const queueRowDto = z.object({
  id: z.string(),
  hash: z.string(),
  orderNumber: z.string(),
  amountMinor: z.number().int(),
  currency: z.string(),
  recipientKind: z.string(),
  recipientHolder: z.string(),
  recipientDisplay: z.string(),
  reason: z.string(),
  channel: z.string().nullable(),
  expiresAt: iso,
  createdAt: iso,
  approvals: z.number().int(),
  requiredApprovals: z.number().int(),
  flags: z.object({ duplicate: z.boolean(), velocity: z.boolean(), twoApprovals: z.boolean() }),
  previouslyRejected: previousRejectionDto.nullable(),
  claim: claimDto.nullable(),
  /** The viewer already gave one of its approvals (a two-reviewer proposal): nothing left for them to do. */
  approvedByMe: z.boolean(),
});
export type QueueRow = z.infer<typeof queueRowDto>;

export const queuePageDto = z.object({ rows: z.array(queueRowDto), nextCursor: z.string().nullable() });
export type QueuePage = z.infer<typeof queuePageDto>;

const linkedProposal = z.object({ id: z.string(), amountMinor: z.number().int(), status: proposalStatusSchema });

export const proposalDetailDto = z.object({
  id: z.string(),
  status: proposalStatusSchema,
  hash: z.string(),
  canonicalJson: z.string(),
  amountMinor: z.number().int(),
  currency: z.string(),
  reason: z.string(),
  expiresAt: iso,
  createdAt: iso,
  decidedAt: iso.nullable(),
  traceId: z.string(),
  requiredApprovals: z.number().int(),
  /** The message for the customer (what the agent reads through get_refund_status). */
  rejectionReason: z.string().nullable(),
  /** Who rejected it, when, the customer message and the staff-only internal note. */
  rejection: z
    .object({ by: z.string().nullable(), at: iso.nullable(), customerMessage: z.string().nullable(), internalNote: z.string().nullable() })
    .nullable(),
  claim: claimDto.nullable(),
  invalidationReason: z.string().nullable(),
  recipient: z.object({ kind: z.string(), holder: z.string(), ref: z.string(), display: z.string() }),
  order: z.object({
    id: z.string(),
    number: z.string(),
    status: z.string(),
    totalMinor: z.number().int(),
    capturedMinor: z.number().int(),
    placedAt: iso,
    items: z.array(z.object({ sku: z.string(), name: z.string(), quantity: z.number(), unitMinor: z.number() })),
    customer: z.object({ id: z.string(), name: z.string() }),
    refunds: z.array(z.object({ id: z.string(), amountMinor: z.number().int(), status: z.string(), createdAt: iso })),
  }),
  derivation: z.object({ capturedMinor: z.number().int(), refundedMinor: z.number().int(), otherOpenMinor: z.number().int(), others: z.array(linkedProposal) }),
  payment: z.object({ method: z.string(), display: z.string(), providerPaymentRef: z.string() }),
  requestedBy: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("agent"), name: z.string(), channel: z.string().nullable() }),
    z.object({ kind: z.literal("staff"), name: z.string(), channel: z.null() }),
  ]),
  approvals: z.array(z.object({ id: z.string(), approver: z.string(), authMethod: z.string(), authTime: iso, createdAt: iso, passkey: z.boolean() })),
  supersedes: linkedProposal.nullable(),
  supersededBy: linkedProposal.nullable(),
  previouslyRejected: previousRejectionDto.nullable(),
  possibleDuplicateOf: duplicateOfDto.nullable(),
  viewer: z.object({
    canDecide: z.boolean(),
    canReject: z.boolean(),
    canEdit: z.boolean(),
    canReprepare: z.boolean(),
    ownRequest: z.boolean(),
    alreadyApproved: z.boolean(),
    hasPasskeys: z.boolean(),
    stepUpMinutes: z.number().int(),
    stepUpAfter: iso,
  }),
});
export type ProposalDetail = z.infer<typeof proposalDetailDto>;

export const approvalResultDto = z.object({
  proposalId: z.string(),
  status: z.enum([proposalStatus.pendingApproval, proposalStatus.approved]),
  approvals: z.number().int(),
  requiredApprovals: z.number().int(),
});
export type ApprovalResult = z.infer<typeof approvalResultDto>;

export const rejectResultDto = z.object({ proposalId: z.string(), status: z.literal(proposalStatus.rejected) });
export type RejectResult = z.infer<typeof rejectResultDto>;

export const editResultDto = z.object({ proposalId: z.string(), supersedes: z.string(), amountMinor: z.number().int() });
export type EditResult = z.infer<typeof editResultDto>;

export const reprepareResultDto = z.object({ proposalId: z.string(), supersedes: z.string() });
export type ReprepareResult = z.infer<typeof reprepareResultDto>;
