import "server-only";
import { proposalStatus } from "@/lib/domain/proposal-state";
import { refundStatus } from "@/lib/domain/refund-state";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import type { Tx } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { lockOrder } from "./locks";
import { closePending, orderMismatch } from "./proposal-guards";
import { asRefund } from "@/lib/domain/refund-row";

/** Who changed the order, for the audit of what it invalidated: an Orders API key, the import, the provider's webhook. */
export type OrderChanger = { tenantId: string; actorId: string; authMethod: string; source: string };

/**
 * Pending proposals of the order that the order as it is now no longer allows (cancelled, recipient or currency
 * changed, less left than proposed — refunds made elsewhere included —, another customer): invalidated by the
 * guarded UPDATE every decision uses, each with its audit event, in the caller's transaction. Approved proposals
 * are left to the worker, which revalidates before it pays. Used by the Orders API / import (upsert-order.ts) and
 * the provider webhook (lib/server/payments/record-external-refunds.ts). With `because`, every pending proposal of
 * the order is invalidated for that reason (a dispute opened on its payment).
 */
export async function invalidateUnfitProposals(
  tx: Tx,
  caller: OrderChanger,
  orderId: string,
  traceId: string,
  now: Date,
  because?: string,
): Promise<string[]> {
  // The order before its proposals (./locks.ts), whatever the caller already locked.
  await lockOrder(sqlOf(tx), caller.tenantId, orderId);
  const pending = await tx.proposal.findMany({
    // The order's refunds (other kinds revalidate through their own declaration).
    where: { tenantId: caller.tenantId, orderId, kind: "refund", status: proposalStatus.pendingApproval },
    include: { order: true, payment: true },
  });
  const invalidated: string[] = [];
  for (const p of pending.map(asRefund)) {
    const reason =
      because ?? (p.order.customerId !== p.customerId ? "customer_changed" : await orderMismatch(tx, p, now));
    if (!reason) continue;
    if (
      !(await closePending(tx, p.id, {
        status: proposalStatus.invalidated,
        invalidationReason: reason,
        decidedAt: now,
      }))
    )
      continue;
    invalidated.push(p.id);
    await recordAuditEvent(sqlOf(tx), {
      tenantId: caller.tenantId,
      traceId: p.traceId,
      actor: { type: "system", id: caller.actorId, authMethod: caller.authMethod },
      action: "proposal:invalidate",
      outcome: proposalStatus.invalidated,
      proposal: { id: p.id, hash: p.hash },
      data: { reason, source: caller.source, apiTraceId: traceId },
      redaction: { clear: ["reason", "source", "apiTraceId"] },
    });
  }
  return invalidated;
}

/** The order's status from its succeeded refunds (cancelled stays cancelled), written and returned. */
export async function refreshOrderStatus(
  tx: Tx,
  order: { id: string; capturedMinor: number; cancelled: boolean },
): Promise<string> {
  const succeeded = await tx.refund.aggregate({
    where: { orderId: order.id, status: refundStatus.succeeded },
    _sum: { amountMinor: true },
  });
  const refunded = succeeded._sum.amountMinor ?? 0;
  const status = order.cancelled
    ? "cancelled"
    : refunded >= order.capturedMinor && order.capturedMinor > 0
      ? "refunded"
      : refunded > 0
        ? "partially_refunded"
        : "paid";
  await tx.order.update({ where: { id: order.id }, data: { status } });
  return status;
}
