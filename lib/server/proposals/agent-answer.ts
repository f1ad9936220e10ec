import "server-only";
import { proposalStatus } from "@/lib/domain/proposal-state";
import { appBaseUrl } from "@/lib/server/env";
import { nowUtc, utc, type Sql } from "@/lib/server/db/sql";

// What every kind's agent answers share (prepare tools, get_refund_status, get_action_status): the pause to suggest
// before asking again, the link to the proposal's page, and the expiry a status read applies by the clock.

/**
 * Suggested pause before asking again without wait_seconds: a reviewer takes minutes, an effect seconds, a
 * reconciliation a minute or more. An agent that waits with wait_seconds needs no pause at all.
 */
export const POLL_AFTER_SECONDS = { pending_review: 30, executing: 5, in_doubt: 60, awaiting_payout: 300 } as const;

/** The proposal's page in the dashboard (APP_URL, else NEXTAUTH_URL): a link the agent may hand to a person. */
export function reviewUrl(proposalId: string): string {
  return `${appBaseUrl()}/proposals/${encodeURIComponent(proposalId)}`;
}

/** The pause to suggest while a proposal awaits review: never past its expiry, never below a second. */
export function pendingPollAfter(expiresAt: Date, now: Date): number {
  const toExpiry = Math.ceil((expiresAt.getTime() - now.getTime()) / 1000);
  return Math.max(1, Math.min(POLL_AFTER_SECONDS.pending_review, toExpiry));
}

/**
 * A pending proposal past its expiry is expired, whether or not the expiry job ran yet: a status read writes so
 * (guarded on the status, scoped to the tenant and the verified customer) before it reads.
 */
export async function expireIfDue(
  tx: Sql,
  where: { tenantId: string; customerId: string; proposalId: string },
  now = new Date(),
): Promise<void> {
  await tx
    .updateTable("Proposal")
    .set({ status: proposalStatus.expired, updatedAt: nowUtc })
    .where("id", "=", where.proposalId)
    .where("tenantId", "=", where.tenantId)
    .where("customerId", "=", where.customerId)
    .where("status", "=", proposalStatus.pendingApproval)
    .where("expiresAt", "<=", utc(now))
    .execute();
}

/**
 * A kind's `approval_required` answer, the same envelope for every kind: the proposal's id, kind and state, the action
 * as the kind names it (its hashed params), expiry, hash, approvals required, the review link and when to ask again.
 */
export function kindApprovalRequired(
  p: { id: string; hash: string; expiresAt: Date; requiredApprovals: number },
  kind: string,
  action: Record<string, unknown>,
  nextStep: string,
  now: Date,
) {
  return {
    code: "approval_required" as const,
    result: {
      proposal_id: p.id,
      kind,
      status: proposalStatus.pendingApproval,
      ...action,
      expires_at: p.expiresAt.toISOString(),
      hash: p.hash,
      approvals_required: p.requiredApprovals,
      review_url: reviewUrl(p.id),
      poll_after_seconds: pendingPollAfter(p.expiresAt, now),
      next_step: nextStep,
    },
  };
}
