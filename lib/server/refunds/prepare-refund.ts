import "server-only";
import { randomUUID } from "node:crypto";
import { failure } from "@/lib/domain/agent-protocol";
import { refundableMinor } from "@/lib/domain/money";
import { computeProposalHash } from "@/lib/domain/proposal-hash";
import type { PrepareRefundInput } from "@/lib/schemas/tools";
import type { Tx } from "@/lib/server/db/client";
import type { HandlerResult, ToolContext } from "@/lib/server/agent/tool-context";
import { orderNotFound } from "@/lib/server/orders/order-not-found";
import { OPEN_PROPOSAL_STATUSES } from "@/lib/server/orders/lookup-order";
import { approvalRequired } from "./proposal-answer";
import { notifyReviewersOfProposal } from "@/lib/server/notifications/notify-reviewers";

type LockedOrder = { id: string; number: string; currency: string; capturedMinor: number; status: string };

/**
 * prepare_refund: a proposal (no effect yet) whose amount, currency and recipient come from the database.
 *
 * Race-free: the order row is locked (SELECT … FOR UPDATE) for the rest of the transaction, so concurrent
 * calls for one order run one after the other; the second finds the first's pending proposal and answers
 * it. The partial unique index "one pending proposal per order" backs this up in the schema.
 */
export async function prepareRefund(tx: Tx, input: PrepareRefundInput, ctx: ToolContext): Promise<HandlerResult> {
  if (!ctx.customerId) throw new Error("prepare_refund needs a verified customer");
  const { tenantId } = ctx.caller;
  const [order] = await tx.$queryRaw<LockedOrder[]>`
    SELECT "id", "number", "currency", "capturedMinor", "status"::text AS "status"
      FROM "Order"
     WHERE "tenantId" = ${tenantId}::uuid AND "number" = ${input.order_id} AND "customerId" = ${ctx.customerId}
     FOR UPDATE`;
  if (!order) return { outcome: orderNotFound(input.order_id) };

  const now = new Date();
  const pending = await tx.proposal.findFirst({ where: { orderId: order.id, status: "pending_approval" } });
  let supersedesId: string | null = null;
  if (pending && pending.expiresAt > now) {
    // Same logical operation: answer the open proposal, do not make another one.
    return { outcome: approvalRequired(pending, order.number), proposal: { id: pending.id, hash: pending.hash }, audit: { order: order.number, reused: true } };
  }
  if (pending) {
    const expired = await tx.proposal.updateMany({ where: { id: pending.id, status: "pending_approval" }, data: { status: "expired" } });
    if (expired.count === 1) supersedesId = pending.id;
  }

  // Sequential on purpose: one transaction is one connection.
  const refunds = await tx.refund.aggregate({ where: { orderId: order.id, status: { in: ["succeeded", "pending"] } }, _sum: { amountMinor: true } });
  const open = await tx.proposal.aggregate({ where: { orderId: order.id, status: { in: [...OPEN_PROPOSAL_STATUSES] } }, _sum: { amountMinor: true } });
  const payment = await tx.payment.findFirst({ where: { orderId: order.id, tenantId }, orderBy: { createdAt: "asc" } });
  const amount = refundableMinor({
    capturedMinor: order.capturedMinor,
    refundedOrPendingMinor: refunds._sum.amountMinor ?? 0,
    openProposalsMinor: open._sum.amountMinor ?? 0,
  });
  if (amount <= 0) {
    return {
      outcome: failure("permission_denied", `Nothing is left to refund on order ${JSON.stringify(order.number)}: it was already refunded or a refund is already in progress.`, {
        order_id: order.number,
        reason: "nothing_left_to_refund",
      }),
      audit: { order: order.number },
    };
  }
  if (!payment) {
    return { outcome: failure("permission_denied", `Order ${JSON.stringify(order.number)} has no payment that can be refunded.`, { order_id: order.number, reason: "no_payment" }) };
  }

  const id = randomUUID();
  const expiresAt = new Date(now.getTime() + ctx.caller.approvalExpiryMinutes * 60_000);
  const recipient = { kind: payment.method, ref: payment.providerPaymentRef, holder: payment.holderName };
  const hash = computeProposalHash({ id, tenantId, orderId: order.id, amount: { minor: amount, currency: order.currency }, recipient, reason: input.reason, expiresAt });
  const threshold = ctx.caller.dualApprovalThresholdMinor;
  const proposal = await tx.proposal.create({
    data: {
      id,
      tenantId,
      orderId: order.id,
      customerId: ctx.customerId,
      paymentId: payment.id,
      requestedByAgentKeyId: ctx.caller.keyId,
      channelId: ctx.caller.channelId,
      endUserId: ctx.customerId,
      amountMinor: amount,
      currency: order.currency,
      recipientKind: recipient.kind,
      recipientRef: recipient.ref,
      recipientHolder: recipient.holder,
      recipientDisplay: payment.display,
      reason: input.reason,
      hash,
      expiresAt,
      requiredApprovals: threshold !== null && amount >= threshold ? 2 : 1,
      supersedesId,
      traceId: ctx.traceId,
    },
  });
  // Reviewers hear of it through the tenant's webhook (a delivery job committed with the proposal).
  await notifyReviewersOfProposal(tx, proposal);
  return {
    outcome: approvalRequired(proposal, order.number),
    proposal: { id, hash },
    audit: { order: order.number, reused: false, amount: { minor: amount, currency: order.currency }, supersedes: supersedesId },
    knownPersonal: [payment.holderName],
  };
}
