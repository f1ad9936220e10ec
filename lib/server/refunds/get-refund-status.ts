import "server-only";
import { failure } from "@/lib/domain/agent-protocol";
import { agentOutcomeFor, proposalStatus as S } from "@/lib/domain/proposal-state";
import type { GetRefundStatusInput } from "@/lib/schemas/tools";
import type { Tx } from "@/lib/server/db/client";
import type { HandlerResult, ToolContext } from "@/lib/server/agent/tool-context";
import { approvalRequired } from "./proposal-answer";

/** get_refund_status: where a proposal of the verified customer stands (DESIGN.md "Flow", last line). */
export async function getRefundStatus(tx: Tx, input: GetRefundStatusInput, ctx: ToolContext): Promise<HandlerResult> {
  if (!ctx.customerId) throw new Error("get_refund_status needs a verified customer");
  const where = { id: input.proposal_id, tenantId: ctx.caller.tenantId, customerId: ctx.customerId };
  // A pending proposal past its expiry is expired, whether or not the expiry job ran yet (guarded write).
  await tx.proposal.updateMany({ where: { ...where, status: S.pendingApproval, expiresAt: { lte: new Date() } }, data: { status: S.expired } });
  const p = await tx.proposal.findFirst({ where, include: { order: { select: { number: true } }, supersededBy: { select: { id: true, amountMinor: true } } } });
  if (!p) {
    return {
      outcome: failure("not_found", `No refund proposal ${JSON.stringify(input.proposal_id)} was found for this customer.`, { proposal_id: input.proposal_id }),
    };
  }
  const proposal = { id: p.id, hash: p.hash };
  const base = { proposal_id: p.id, order_id: p.order.number, amount: { minor: p.amountMinor, currency: p.currency } };
  // The code comes from the one state → outcome mapping; the words and details per outcome are here.
  const code = agentOutcomeFor(p.status);
  if (code === "approval_required") return { outcome: approvalRequired(p, p.order.number), proposal };
  if (code === "result_pending") {
    return {
      outcome: { code, result: { ...base, status: p.status, next_step: "Approved; the refund is being paid. Check again later. Do not re-submit." } },
      proposal,
    };
  }
  if (code === "ok") return { outcome: { code, result: { ...base, status: p.status } }, proposal };
  // Ended without effect: rejected, expired or invalidated — each the agent's error code of the same name.
  switch (p.status) {
    case S.rejected:
      return { outcome: failure(code, "A reviewer rejected this refund.", { ...base, reason: p.rejectionReason ?? null }), proposal };
    case S.expired:
      return {
        outcome: failure(code, "This refund proposal expired before anyone approved it. Prepare a new one only if the customer still wants it.", base),
        proposal,
      };
    case S.invalidated:
      return {
        outcome: failure(code, "This refund proposal can no longer be approved (the order changed or a reviewer replaced it).", {
          ...base,
          reason: p.invalidationReason ?? null,
          replaced_by: p.supersededBy ? { proposal_id: p.supersededBy.id, amount: { minor: p.supersededBy.amountMinor, currency: p.currency } } : null,
        }),
        proposal,
      };
    default:
      throw new Error(`no agent answer for ${p.status} (${code})`);
  }
}
