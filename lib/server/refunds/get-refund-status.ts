import "server-only";
import { failure } from "@/lib/domain/agent-protocol";
import type { GetRefundStatusInput } from "@/lib/schemas/tools";
import type { Tx } from "@/lib/server/db/client";
import type { HandlerResult, ToolContext } from "@/lib/server/agent/tool-context";
import { approvalRequired } from "./proposal-answer";

/** get_refund_status: where a proposal of the verified customer stands (DESIGN.md "Flow", last line). */
export async function getRefundStatus(tx: Tx, input: GetRefundStatusInput, ctx: ToolContext): Promise<HandlerResult> {
  if (!ctx.customerId) throw new Error("get_refund_status needs a verified customer");
  const where = { id: input.proposal_id, tenantId: ctx.caller.tenantId, customerId: ctx.customerId };
  // A pending proposal past its expiry is expired, whether or not the expiry job ran yet (guarded write).
  await tx.proposal.updateMany({ where: { ...where, status: "pending_approval", expiresAt: { lte: new Date() } }, data: { status: "expired" } });
  const p = await tx.proposal.findFirst({ where, include: { order: { select: { number: true } }, supersededBy: { select: { id: true, amountMinor: true } } } });
  if (!p) {
    return {
      outcome: failure("not_found", `No refund proposal ${JSON.stringify(input.proposal_id)} was found for this customer.`, { proposal_id: input.proposal_id }),
    };
  }
  const proposal = { id: p.id, hash: p.hash };
  const base = { proposal_id: p.id, order_id: p.order.number, amount: { minor: p.amountMinor, currency: p.currency } };
  switch (p.status) {
    case "pending_approval":
      return { outcome: approvalRequired(p, p.order.number), proposal };
    case "approved":
    case "executing":
    case "needs_reconciliation":
      return { outcome: { code: "result_pending", result: { ...base, status: p.status, next_step: "Approved; the refund is being paid. Check again later. Do not re-submit." } }, proposal };
    case "succeeded":
    case "failed":
      return { outcome: { code: "ok", result: { ...base, status: p.status } }, proposal };
    case "rejected":
      return {
        outcome: failure("rejected", "A reviewer rejected this refund.", { ...base, reason: p.rejectionReason ?? null }),
        proposal,
      };
    case "expired":
      return { outcome: failure("expired", "This refund proposal expired before anyone approved it. Prepare a new one only if the customer still wants it.", base), proposal };
    case "invalidated":
      return {
        outcome: failure("invalidated", "This refund proposal can no longer be approved (the order changed or a reviewer replaced it).", {
          ...base,
          reason: p.invalidationReason ?? null,
          replaced_by: p.supersededBy ? { proposal_id: p.supersededBy.id, amount: { minor: p.supersededBy.amountMinor, currency: p.currency } } : null,
        }),
        proposal,
      };
  }
}
