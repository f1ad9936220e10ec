import "server-only";
import type { ToolOutcome } from "@/lib/domain/agent-protocol";
import { proposalStatus } from "@/lib/domain/proposal-state";
import { MAX_WAIT_SECONDS } from "@/lib/schemas/tools";
import { pendingPollAfter, reviewUrl } from "@/lib/server/proposals/agent-answer";

export { POLL_AFTER_SECONDS, reviewUrl } from "@/lib/server/proposals/agent-answer";

/** The proposal fields the agent is shown when one awaits review. */
export type PendingProposalAnswer = {
  id: string;
  hash: string;
  amountMinor: number;
  currency: string;
  recipientKind: string;
  recipientDisplay: string;
  recipientHolder: string;
  reason: string;
  expiresAt: Date;
  requiredApprovals: number;
};

/** The `approval_required` answer: what a human will be asked to approve, exactly. */
export function approvalRequired(p: PendingProposalAnswer, orderNumber: string, now = new Date()): ToolOutcome {
  return {
    code: "approval_required",
    result: {
      proposal_id: p.id,
      status: proposalStatus.pendingApproval,
      order_id: orderNumber,
      amount: { minor: p.amountMinor, currency: p.currency },
      recipient: { kind: p.recipientKind, display: p.recipientDisplay, holder: p.recipientHolder },
      reason: p.reason,
      expires_at: p.expiresAt.toISOString(),
      hash: p.hash,
      approvals_required: p.requiredApprovals,
      review_url: reviewUrl(p.id),
      poll_after_seconds: pendingPollAfter(p.expiresAt, now),
      next_step: `A person must approve this refund before anything is paid. Tell the customer it awaits review. To learn the decision, call get_refund_status with wait_seconds: ${MAX_WAIT_SECONDS} (it answers as soon as a reviewer decides; repeat while it still awaits review), or check again after poll_after_seconds. Do not call prepare_refund again.`,
    },
  };
}
