// The tenant policy rules a new proposal is built with (pure; lib/server/proposals/build-proposal.ts
// applies them). One home each, so prepare, re-prepare and edit can never disagree.

/** Four eyes: at or above the tenant's threshold a proposal needs two distinct reviewers. Null = never. */
export function requiredApprovalsFor(amountMinor: number, dualApprovalThresholdMinor: number | null): number {
  return dualApprovalThresholdMinor !== null && amountMinor >= dualApprovalThresholdMinor ? 2 : 1;
}

/** When a proposal made at `now` stops being approvable. */
export function proposalExpiresAt(now: Date, approvalExpiryMinutes: number): Date {
  return new Date(now.getTime() + approvalExpiryMinutes * 60_000);
}

/** What a new proposal asks for: what was wanted, capped by what is left to refund now. */
export function proposalAmountMinor(leftMinor: number, wantedMinor?: number): number {
  return wantedMinor === undefined ? leftMinor : Math.min(wantedMinor, leftMinor);
}
