import "server-only";
import type { ToolOutcome } from "@/lib/domain/agent-protocol";
import { proposalStatus } from "@/lib/domain/proposal-state";

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
export function approvalRequired(p: PendingProposalAnswer, orderNumber: string): ToolOutcome {
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
      next_step:
        "A person must approve this refund before anything is paid. Tell the customer it awaits review and check later with get_refund_status. Do not call prepare_refund again.",
    },
  };
}
