// The states of one execution (the provider call of an approved proposal): the one home of their names
// and groups. See prisma/schema.prisma `ExecutionStatus` and docs/execution.md.

export const executionStatus = {
  /** The idempotency key is committed; the provider call is about to be / being made. */
  sending: "sending",
  /** The provider accepted the refund and has not settled it yet. */
  pending: "pending",
  succeeded: "succeeded",
  failed: "failed",
  /** Timeout, 5xx, dropped connection or a crash after sending: the reconciler asks the provider. */
  unknown: "unknown",
  /**
   * A refund of a payment no connected provider holds (`manual`): nothing is sent; ops pay it out outside the
   * product and record the transfer's reference. Never reconciled with a provider (there is none to ask).
   */
  awaitingPayout: "awaiting_payout",
} as const;

export type ExecutionStatus = (typeof executionStatus)[keyof typeof executionStatus];

/** In the order the ops view lists them. */
export const executionStates = [
  executionStatus.awaitingPayout,
  executionStatus.sending,
  executionStatus.pending,
  executionStatus.unknown,
  executionStatus.succeeded,
  executionStatus.failed,
] as const;
export type ExecutionState = (typeof executionStates)[number];

/** The executions list's sort orders (the first is the default). */
export const executionSorts = ["newest", "oldest"] as const;
export type ExecutionSort = (typeof executionSorts)[number];

/** Final: a later or repeated provider answer changes nothing. */
export const settledExecutionStatuses = [executionStatus.succeeded, executionStatus.failed] as const;
/** Not settled: the guard of every provider answer. */
export const unsettledExecutionStatuses = [
  executionStatus.sending,
  executionStatus.unknown,
  executionStatus.pending,
] as const;

export function isExecutionSettled(status: ExecutionStatus): boolean {
  return (settledExecutionStatuses as readonly ExecutionStatus[]).includes(status);
}

/**
 * The provider idempotency key of a proposal's refund: one per proposal, stored on its execution before the
 * provider is called, so every retry and reconciliation of the same proposal presents the same key.
 */
export const refundIdempotencyKey = (proposalId: string) => actionIdempotencyKey("refund", proposalId);

/**
 * Every kind's execution key, `<kind>-<proposal id>` (the refund's is `refund-<id>`): what the executor commits before
 * it acts and what an evidence pack's verifier expects from the pack's hashed kind.
 */
export const actionIdempotencyKey = (kind: string, proposalId: string) => `${kind}-${proposalId}`;

/**
 * Whether a recorded manual payout needs a second person's confirmation (never the one who recorded it; the
 * database refuses it too: CHECK "Execution_payout_four_eyes"): at or above the tenant's four-eyes threshold as
 * it is now, or when the proposal itself needed two approvals.
 */
export function payoutNeedsSecondPerson(
  p: { amountMinor: number; requiredApprovals: number },
  fourEyesThresholdMinor: number | null,
): boolean {
  return p.requiredApprovals >= 2 || (fourEyesThresholdMinor !== null && p.amountMinor >= fourEyesThresholdMinor);
}
