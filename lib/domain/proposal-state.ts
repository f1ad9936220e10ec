// The proposal's life (docs/design.md "Proposal states"): the one home of its states, the allowed
// transitions, which states hold money back ("open"), and the one mapping from a state to what the agent
// is told (outcome code) and to what a reviewer is told when a decision is refused. Every use case goes
// through these constants; no other file spells a status.
import { executionStatus as E } from "./execution-state";
import type { ErrorCode, OutcomeCode } from "./outcome";

export const proposalStatus = {
  pendingApproval: "pending_approval",
  approved: "approved",
  executing: "executing",
  succeeded: "succeeded",
  failed: "failed",
  needsReconciliation: "needs_reconciliation",
  rejected: "rejected",
  expired: "expired",
  invalidated: "invalidated",
} as const;

export type ProposalStatus = (typeof proposalStatus)[keyof typeof proposalStatus];

export const proposalStatuses: readonly ProposalStatus[] = Object.values(proposalStatus);

const S = proposalStatus;

/** Allowed moves. `needs_reconciliation → executing`: the reconciler found the refund accepted, not settled. */
export const proposalTransitions: Readonly<Record<ProposalStatus, readonly ProposalStatus[]>> = {
  pending_approval: [S.approved, S.rejected, S.expired, S.invalidated],
  // The worker revalidates before sending: an approval too old expires it, a changed order invalidates it.
  approved: [S.executing, S.expired, S.invalidated],
  executing: [S.succeeded, S.failed, S.needsReconciliation],
  needs_reconciliation: [S.executing, S.succeeded, S.failed],
  succeeded: [],
  failed: [],
  rejected: [],
  expired: [],
  invalidated: [],
};

export function canTransition(from: ProposalStatus, to: ProposalStatus): boolean {
  return proposalTransitions[from].includes(to);
}

/** The states from which `to` may be reached: the `status IN (…)` guard of a state change. */
export function statesLeadingTo(to: ProposalStatus): ProposalStatus[] {
  return proposalStatuses.filter((from) => canTransition(from, to));
}

/**
 * Open: the proposal may still become a refund, so its amount is held back from what is left to refund
 * and `lookup_order` lists it. A pending proposal past its expiry is not open (see `isOpenAt`).
 */
export const openProposalStatuses = [
  S.pendingApproval,
  S.approved,
  S.executing,
  S.needsReconciliation,
] as const satisfies readonly ProposalStatus[];

/** Closed without any effect: no refund came or will come of it. */
export const closedWithoutEffectStatuses = [
  S.rejected,
  S.expired,
  S.invalidated,
] as const satisfies readonly ProposalStatus[];

/** Being paid: approved, and the money is on its way (or its outcome is being found out). */
export const inPaymentStatuses = [
  S.approved,
  S.executing,
  S.needsReconciliation,
] as const satisfies readonly ProposalStatus[];

/** Settled by the provider. */
export const settledStatuses = [S.succeeded, S.failed] as const satisfies readonly ProposalStatus[];

/** Decided (no longer waiting for a reviewer): what the Decided page lists and filters by. */
export const decidedStatuses = [
  "approved",
  "executing",
  "succeeded",
  "failed",
  "needs_reconciliation",
  "rejected",
  "expired",
  "invalidated",
] as const satisfies readonly ProposalStatus[];

export function isProposalStatus(value: string): value is ProposalStatus {
  return (proposalStatuses as readonly string[]).includes(value);
}

/** The state as of `now`: a pending proposal past its expiry is expired, whether or not the sweep ran yet. */
export function effectiveStatus(p: { status: ProposalStatus; expiresAt: Date }, now: Date): ProposalStatus {
  return p.status === S.pendingApproval && p.expiresAt <= now ? S.expired : p.status;
}

export function isOpenAt(p: { status: ProposalStatus; expiresAt: Date }, now: Date): boolean {
  return (openProposalStatuses as readonly ProposalStatus[]).includes(effectiveStatus(p, now));
}

/** Awaiting a reviewer right now (pending and not past its expiry). */
export function isAwaitingReview(p: { status: ProposalStatus; expiresAt: Date }, now: Date): boolean {
  return effectiveStatus(p, now) === S.pendingApproval;
}

/** What the agent is told about a proposal in this state (get_refund_status; docs/design.md "Outcome codes"). */
export function agentOutcomeFor(status: ProposalStatus): OutcomeCode {
  switch (status) {
    case S.pendingApproval:
      return "approval_required";
    case S.approved:
    case S.executing:
    case S.needsReconciliation:
      return "result_pending";
    case S.succeeded:
    case S.failed:
      return "ok";
    case S.rejected:
      return "rejected";
    case S.expired:
      return "expired";
    case S.invalidated:
      return "invalidated";
  }
}

export type ReviewerAction = "approve" | "reject" | "edit";

const pastTense: Record<ReviewerAction, string> = { approve: "approved", reject: "rejected", edit: "edited" };

/** What a proposal in this state has come to, as a sentence's predicate: "This proposal has already been carried out". */
const whereItStands: Record<ProposalStatus, string> = {
  pending_approval: "still awaits approval",
  approved: "has already been approved",
  executing: "has been approved and is being carried out",
  succeeded: "has already been carried out",
  failed: "was approved and its execution failed",
  needs_reconciliation: "was approved and its outcome is being checked with the payment provider",
  rejected: "has been rejected",
  expired: "has expired",
  invalidated: "has been invalidated (its order changed or a new proposal replaced it)",
};

/**
 * Why a reviewer cannot approve (or reject, or edit) a proposal in this stored state, or null when the
 * state allows it (the caller still checks the expiry, which also moves the row to `expired`). An approval
 * attempt names the end state the agent also sees (expired / invalidated / rejected), so reviewer and
 * agent read the same word; anything else is `permission_denied`.
 */
export function reviewerRefusal(
  status: ProposalStatus,
  action: ReviewerAction,
): { code: ErrorCode; message: string } | null {
  if (status === S.pendingApproval) return null;
  if (action === "edit")
    return { code: "permission_denied", message: "Only a proposal that still awaits approval can be edited." };
  const code = action === "approve" ? refusalCodeFor(status) : "permission_denied";
  return { code, message: `This proposal ${whereItStands[status]}; it can no longer be ${pastTense[action]}.` };
}

/** The error code of a refused approval of a proposal in this state: the end state's own code, else permission_denied. */
export function refusalCodeFor(status: ProposalStatus): ErrorCode {
  return status === S.expired || status === S.invalidated || status === S.rejected ? status : "permission_denied";
}

/** A re-prepare (new proposal, same order) is possible from these states only. */
export function canBeReprepared(p: { status: ProposalStatus; expiresAt: Date }, now: Date): boolean {
  const status = effectiveStatus(p, now);
  return status === S.expired || status === S.invalidated;
}

/**
 * What `result_pending` tells the agent about a refund on its way: `in_doubt` when the provider's answer was
 * lost and the reconciler is finding out (the proposal needs reconciliation, or its execution's outcome is
 * unknown), `awaiting_payout` when no provider holds the payment and ops pay it out by hand (a manual payment),
 * `executing` otherwise (approved and queued, or sent and awaiting the provider's settlement).
 */
export function paymentPhase(
  status: ProposalStatus,
  executionStatus: string | null | undefined,
): "executing" | "in_doubt" | "awaiting_payout" {
  if (status === S.needsReconciliation || executionStatus === E.unknown) return "in_doubt";
  return executionStatus === E.awaitingPayout ? "awaiting_payout" : "executing";
}

/**
 * What a waiting agent can tell apart (get_refund_status with wait_seconds): the state as of `now` plus the
 * payment phase. A wait ends when this changes; other changes (the execution going from sending to pending)
 * are not news to the agent.
 */
export function agentVisibleState(
  p: { status: ProposalStatus; expiresAt: Date; executionStatus: string | null },
  now: Date,
): string {
  const status = effectiveStatus(p, now);
  return agentOutcomeFor(status) === "result_pending" ? `${status}:${paymentPhase(status, p.executionStatus)}` : status;
}

/** Still moving: a change may come that is worth waiting for (pending a reviewer, or being paid). */
export function isWorthWaitingFor(p: { status: ProposalStatus; expiresAt: Date }, now: Date): boolean {
  return isOpenAt(p, now);
}
