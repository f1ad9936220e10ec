// What the proposal endpoints answer (DTOs): the zod schemas are the contract between the server use cases
// (lib/server/proposals) and the client (lib/queries validates every response with them), so client code
// never imports a type from lib/server.
// Written with `zod/mini` (same validation, functional style: z.nullable(x), z.int(), z.pipe(a, b)) because
// these schemas ship to the browser: full zod costs ~27 KiB gzip on every page, mini ~7 KiB (bench:ui).
import * as z from "zod/mini";
import { proposalStatuses, proposalStatus } from "@/lib/domain/proposal-state";

export const proposalStatusSchema = z.pipe(
  z.enum(proposalStatuses as [string, ...string[]]),
  z.custom<(typeof proposalStatuses)[number]>(),
);

const iso = z.string();

/** "Previously rejected": the newest rejection of a proposal for the same order before this one (reason, who, when). */
export const previousRejectionDto = z.object({
  proposalId: z.string(),
  reason: z.nullable(z.string()),
  by: z.nullable(z.string()),
  at: z.nullable(iso),
});
export type PreviousRejection = z.infer<typeof previousRejectionDto>;

/** What a proposal possibly duplicates: a live proposal or an earlier refund of the same customer, same order or amount. */
export const duplicateOfDto = z.object({
  kind: z.enum(["proposal", "refund"]),
  id: z.string(),
  orderNumber: z.string(),
  amountMinor: z.int(),
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
  /** The kind (docs/action-kinds.md): a refund has its amount and recipient; another kind its `summary`. */
  kind: z.string(),
  orderNumber: z.string(),
  amountMinor: z.nullable(z.int()),
  currency: z.nullable(z.string()),
  recipientKind: z.nullable(z.string()),
  recipientHolder: z.nullable(z.string()),
  recipientDisplay: z.nullable(z.string()),
  /** Another kind's one line, from its hashed params (the kind's review); null for a refund. */
  summary: z.nullable(z.string()),
  reason: z.string(),
  channel: z.nullable(z.string()),
  expiresAt: iso,
  createdAt: iso,
  approvals: z.int(),
  requiredApprovals: z.int(),
  flags: z.object({ duplicate: z.boolean(), velocity: z.boolean(), twoApprovals: z.boolean() }),
  previouslyRejected: z.nullable(previousRejectionDto),
  claim: z.nullable(claimDto),
  /** The viewer already gave one of its approvals (a two-reviewer proposal): nothing left for them to do. */
  approvedByMe: z.boolean(),
});
export type QueueRow = z.infer<typeof queueRowDto>;

export const queuePageDto = z.object({ rows: z.array(queueRowDto), nextCursor: z.nullable(z.string()) });
export type QueuePage = z.infer<typeof queuePageDto>;

const linkedProposal = z.object({ id: z.string(), amountMinor: z.int(), status: proposalStatusSchema });

/** A staff comment on a proposal: who, when, and the body as stored (personal data masked). */
export const proposalCommentDto = z.object({ id: z.string(), author: z.string(), body: z.string(), createdAt: iso });
export type ProposalComment = z.infer<typeof proposalCommentDto>;

const orderItemDto = z.object({ sku: z.string(), name: z.string(), quantity: z.number(), unitMinor: z.number() });

/** Who rejected it, when, the customer message and the staff-only internal note. */
const rejectionDto = z.object({
  by: z.nullable(z.string()),
  at: z.nullable(iso),
  customerMessage: z.nullable(z.string()),
  internalNote: z.nullable(z.string()),
});

const requestedByDto = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("agent"), name: z.string(), channel: z.nullable(z.string()) }),
  z.object({ kind: z.literal("staff"), name: z.string(), channel: z.null() }),
]);

const approvalsDto = z.array(
  z.object({
    id: z.string(),
    approver: z.string(),
    authMethod: z.string(),
    authTime: iso,
    createdAt: iso,
    passkey: z.boolean(),
  }),
);

const viewerDto = z.object({
  canDecide: z.boolean(),
  canReject: z.boolean(),
  canComment: z.boolean(),
  canEdit: z.boolean(),
  canReprepare: z.boolean(),
  ownRequest: z.boolean(),
  alreadyApproved: z.boolean(),
  hasPasskeys: z.boolean(),
  stepUpMinutes: z.int(),
  stepUpAfter: iso,
});

/**
 * Who must confirm (hashed: reviewers, customer, both) and what the customer decided on their confirm link, when
 * (docs/agent-api.md, "Customer confirmation"); the browser is its family and OS only.
 */
export const customerConfirmationDto = z.object({
  required: z.enum(["reviewers", "customer", "both"]),
  decision: z.nullable(z.enum(["confirmed", "declined"])),
  decidedAt: z.nullable(iso),
  browser: z.nullable(z.string()),
});
export type CustomerConfirmationView = z.infer<typeof customerConfirmationDto>;

/** Where any proposal stands, whatever its kind: its reason, times, trace, approvals needed, rejection, claim. */
const proposalStateShape = {
  customerConfirmation: customerConfirmationDto,
  reason: z.string(),
  expiresAt: iso,
  createdAt: iso,
  decidedAt: z.nullable(iso),
  traceId: z.string(),
  requiredApprovals: z.int(),
  /** The message for the customer (what the agent reads through get_refund_status). */
  rejectionReason: z.nullable(z.string()),
  rejection: z.nullable(rejectionDto),
  claim: z.nullable(claimDto),
  invalidationReason: z.nullable(z.string()),
};

const stepDto = z.object({ id: z.string(), kind: z.string(), status: proposalStatusSchema });
/**
 * The action's other step (docs/action-kinds.md, "Steps"): `partOf` — this proposal is the second step of the one
 * named (a cancellation's refund: authorised by that proposal's approval, not its own); `followUp` — this proposal's
 * second step, once its first succeeded.
 */
const stepsDto = z.object({ partOf: z.nullable(stepDto), followUp: z.nullable(stepDto) });

export const proposalDetailDto = z.object({
  /** The refund's detail (a proposal of another kind answers kindProposalDetailDto). */
  kind: z.literal("refund"),
  id: z.string(),
  status: proposalStatusSchema,
  hash: z.string(),
  canonicalJson: z.string(),
  /**
   * The hash version. From 4 on, everything presented as the action — amount, recipient (display included), order
   * number, customer name, items, reason, expiry — is the hashed value; before 4 the display, the order number,
   * the customer and the items are read from today's rows and are not bound.
   */
  hashVersion: z.int(),
  /** Whether the stored row still recomputes to its hash (false: altered outside the product; approval is refused). */
  hashIntact: z.boolean(),
  /**
   * What the order says today where it differs from what was hashed at prepare (v4): the customer's name and the
   * items. Shown as "changed since prepared"; the values above stay the hashed ones. Null when nothing differs.
   */
  changedSincePrepared: z.nullable(
    z.object({ customerName: z.nullable(z.string()), items: z.nullable(z.array(orderItemDto)) }),
  ),
  amountMinor: z.int(),
  currency: z.string(),
  ...proposalStateShape,
  recipient: z.object({ kind: z.string(), holder: z.string(), ref: z.string(), display: z.string() }),
  /** `manual`: no connected provider holds the payment; ops pay the refund out by hand (docs/systems-of-record.md). */
  payout: z.enum(["provider", "manual"]),
  order: z.object({
    id: z.string(),
    number: z.string(),
    status: z.string(),
    totalMinor: z.int(),
    capturedMinor: z.int(),
    placedAt: iso,
    items: z.array(orderItemDto),
    customer: z.object({ id: z.string(), name: z.string() }),
    refunds: z.array(
      z.object({
        id: z.string(),
        amountMinor: z.int(),
        status: z.string(),
        origin: z.enum(["local", "external"]),
        createdAt: iso,
      }),
    ),
  }),
  /** refundedMinor counts every refund holding money back; elsewhereMinor is the part made outside this product. */
  derivation: z.object({
    capturedMinor: z.int(),
    refundedMinor: z.int(),
    elsewhereMinor: z.int(),
    otherOpenMinor: z.int(),
    others: z.array(linkedProposal),
  }),
  payment: z.object({ method: z.string(), display: z.string(), providerPaymentRef: z.string() }),
  requestedBy: requestedByDto,
  approvals: approvalsDto,
  /** Staff comments, oldest first (stored redacted). */
  comments: z.array(proposalCommentDto),
  supersedes: z.nullable(linkedProposal),
  supersededBy: z.nullable(linkedProposal),
  previouslyRejected: z.nullable(previousRejectionDto),
  possibleDuplicateOf: z.nullable(duplicateOfDto),
  steps: stepsDto,
  viewer: viewerDto,
});
export type ProposalDetail = z.infer<typeof proposalDetailDto>;

const reviewFieldDto = z.object({
  key: z.string(),
  before: z.nullable(z.string()),
  after: z.nullable(z.string()),
  changed: z.boolean(),
  /** The label per locale when the kind's params carry it (an admin-declared action's); else messages. */
  label: z.optional(z.object({ en: z.string(), es: z.string() })),
});

/**
 * GET /api/proposals/{id} for a proposal of any kind but the refund (docs/action-kinds.md): the action as the kind's
 * `review` presents it — labelled fields, before → after, the confirmation sentence's values — every value from the
 * hashed params; the rest as for a refund (state, expiry, approvals, comments, who asked, the viewer's rights).
 */
export const kindProposalDetailDto = z.object({
  kind: z.string(),
  id: z.string(),
  status: proposalStatusSchema,
  hash: z.string(),
  canonicalJson: z.string(),
  hashVersion: z.int(),
  hashIntact: z.boolean(),
  ...proposalStateShape,
  review: z.object({
    fields: z.array(reviewFieldDto),
    sentence: z.record(z.string(), z.string()),
    summary: z.string(),
  }),
  /** Its execution once approved: the state, the executor's reference, why it failed. */
  execution: z.nullable(
    z.object({
      id: z.string(),
      status: z.string(),
      reference: z.nullable(z.string()),
      failureReason: z.nullable(z.string()),
    }),
  ),
  requestedBy: requestedByDto,
  approvals: approvalsDto,
  comments: z.array(proposalCommentDto),
  supersedes: z.nullable(z.object({ id: z.string(), status: proposalStatusSchema })),
  supersededBy: z.nullable(z.object({ id: z.string(), status: proposalStatusSchema })),
  steps: stepsDto,
  viewer: viewerDto,
});
export type KindProposalDetail = z.infer<typeof kindProposalDetailDto>;

/** What the proposal page reads: a refund's own detail, or another kind's (narrow with ./proposal-page.ts). */
export type ProposalPage = ProposalDetail | KindProposalDetail;

export const approvalResultDto = z.object({
  proposalId: z.string(),
  status: z.enum([proposalStatus.pendingApproval, proposalStatus.approved]),
  approvals: z.int(),
  requiredApprovals: z.int(),
});
export type ApprovalResult = z.infer<typeof approvalResultDto>;

export const rejectResultDto = z.object({ proposalId: z.string(), status: z.literal(proposalStatus.rejected) });
export type RejectResult = z.infer<typeof rejectResultDto>;

export const editResultDto = z.object({ proposalId: z.string(), supersedes: z.string(), amountMinor: z.int() });
export type EditResult = z.infer<typeof editResultDto>;

export const reprepareResultDto = z.object({ proposalId: z.string(), supersedes: z.string() });
export type ReprepareResult = z.infer<typeof reprepareResultDto>;

/** GET /api/proposals/pending-count: how many proposals wait (counting stops at a cap: `capped`). */
export const pendingCountDto = z.object({ count: z.int(), capped: z.boolean() });
export type PendingCountDto = z.infer<typeof pendingCountDto>;

/**
 * POST /api/proposals/bulk-reject: one line per proposal, in the order sent — `rejected`, or `refused` with the
 * code and message the single rejection would have answered (stale hash, expired, already decided, not found).
 */
export const bulkRejectResultDto = z.object({
  results: z.array(
    z.object({
      proposalId: z.string(),
      outcome: z.enum(["rejected", "refused"]),
      code: z.nullable(z.string()),
      message: z.nullable(z.string()),
    }),
  ),
});
export type BulkRejectResult = z.infer<typeof bulkRejectResultDto>;
