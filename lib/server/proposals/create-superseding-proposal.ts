import "server-only";
import { randomUUID } from "node:crypto";
import type { Tx } from "@/lib/server/db/client";
import { computeProposalHash } from "@/lib/domain/proposal-hash";
import { refundableMinor } from "@/lib/domain/money";
import { OPEN_PROPOSAL_STATUSES } from "@/lib/server/orders/lookup-order";
import { notifyReviewersOfProposal } from "@/lib/server/notifications/notify-reviewers";
import { recordAuditEvent } from "@/lib/server/audit/record-event";

type Old = {
  id: string;
  tenantId: string;
  orderId: string;
  customerId: string;
  channelId: string | null;
  endUserId: string | null;
  reason: string;
  traceId: string;
};

export type SupersedeResult = { ok: true; proposal: { id: string; hash: string; amountMinor: number } } | { ok: false; reason: "nothing_left_to_refund" | "no_payment" | "already_superseded" | "another_pending" };

/**
 * Makes the proposal that replaces `old`, re-derived from current data: amount = min(wanted, what is
 * left to refund now), recipient = the order's original payment as it is now, expiry from policy, a
 * new id and hash, `supersedesId` = old. The staff member who makes it is its requester, so they can
 * never approve it. The caller holds the old proposal's row lock and has already closed it; this
 * locks the order row so it cannot race prepare_refund.
 */
export async function createSupersedingProposal(
  tx: Tx,
  old: Old,
  opts: { wantedMinor: number; requestedByStaffId: string; now: Date },
): Promise<SupersedeResult> {
  if (await tx.proposal.findUnique({ where: { supersedesId: old.id }, select: { id: true } })) return { ok: false, reason: "already_superseded" };
  const [order] = await tx.$queryRaw<{ id: string; currency: string; capturedMinor: number }[]>`
    SELECT "id", "currency", "capturedMinor" FROM "Order" WHERE "id" = ${old.orderId}::uuid AND "tenantId" = ${old.tenantId}::uuid FOR UPDATE`;
  if (!order) return { ok: false, reason: "no_payment" };
  if (await tx.proposal.findFirst({ where: { orderId: order.id, status: "pending_approval" }, select: { id: true } })) return { ok: false, reason: "another_pending" };
  const payment = await tx.payment.findFirst({ where: { orderId: order.id, tenantId: old.tenantId }, orderBy: { createdAt: "asc" } });
  if (!payment) return { ok: false, reason: "no_payment" };
  const refunds = await tx.refund.aggregate({ where: { orderId: order.id, status: { in: ["succeeded", "pending"] } }, _sum: { amountMinor: true } });
  const open = await tx.proposal.aggregate({ where: { orderId: order.id, status: { in: [...OPEN_PROPOSAL_STATUSES] } }, _sum: { amountMinor: true } });
  const left = refundableMinor({ capturedMinor: order.capturedMinor, refundedOrPendingMinor: refunds._sum.amountMinor ?? 0, openProposalsMinor: open._sum.amountMinor ?? 0 });
  const amountMinor = Math.min(opts.wantedMinor, left);
  if (amountMinor <= 0) return { ok: false, reason: "nothing_left_to_refund" };

  const tenant = await tx.tenant.findUniqueOrThrow({ where: { id: old.tenantId }, select: { approvalExpiryMinutes: true, dualApprovalThresholdMinor: true } });
  const id = randomUUID();
  const expiresAt = new Date(opts.now.getTime() + tenant.approvalExpiryMinutes * 60_000);
  const recipient = { kind: payment.method, ref: payment.providerPaymentRef, holder: payment.holderName };
  const hash = computeProposalHash({ id, tenantId: old.tenantId, orderId: order.id, amount: { minor: amountMinor, currency: order.currency }, recipient, reason: old.reason, expiresAt });
  const created = await tx.proposal.create({
    data: {
      id,
      tenantId: old.tenantId,
      orderId: order.id,
      customerId: old.customerId,
      paymentId: payment.id,
      requestedByStaffId: opts.requestedByStaffId,
      channelId: old.channelId,
      endUserId: old.endUserId,
      amountMinor,
      currency: order.currency,
      recipientKind: recipient.kind,
      recipientRef: recipient.ref,
      recipientHolder: recipient.holder,
      recipientDisplay: payment.display,
      reason: old.reason,
      hash,
      expiresAt,
      requiredApprovals: tenant.dualApprovalThresholdMinor !== null && amountMinor >= tenant.dualApprovalThresholdMinor ? 2 : 1,
      supersedesId: old.id,
      // The same trace: the auditor sees the whole story, v1 and v2.
      traceId: old.traceId,
    },
  });
  // A new proposal awaits review: the tenant's reviewer webhook hears of it (committed with it).
  await notifyReviewersOfProposal(tx, created);
  return { ok: true, proposal: { id, hash, amountMinor } };
}

/** The audit event of a supersede (edit or re-prepare): the new proposal, and what it replaces. */
export async function recordSupersede(
  tx: Tx,
  actor: { tenantId: string; userId: string; authMethod: string },
  action: "proposal:edit" | "proposal:reprepare",
  old: { id: string; hash: string; amountMinor: number; traceId: string },
  made: { id: string; hash: string; amountMinor: number },
): Promise<void> {
  await recordAuditEvent(tx, {
    tenantId: actor.tenantId,
    traceId: old.traceId,
    actor: { type: "staff", id: actor.userId, authMethod: actor.authMethod },
    action,
    outcome: "approval_required",
    proposal: { id: made.id, hash: made.hash },
    data: { supersedes: old.id, supersedesHash: old.hash, amountMinor: made.amountMinor, previousAmountMinor: old.amountMinor },
    redaction: { clear: ["supersedes", "supersedesHash", "amountMinor", "previousAmountMinor"] },
  });
}
