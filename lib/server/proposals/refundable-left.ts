import "server-only";
import { refundableMinor } from "@/lib/domain/money";
import { inPaymentStatuses, proposalStatus } from "@/lib/domain/proposal-state";
import { refundStatus } from "@/lib/domain/refund-state";
import type { Prisma } from "@/lib/server/db/generated/client";
import type { Tx } from "@/lib/server/db/client";

/**
 * The proposals of an order that hold money back at `now`: being paid, or awaiting review and not past
 * their expiry. A pending proposal past its expiry holds nothing back, whether or not the sweep has
 * marked it `expired` yet (so `lookup_order` and a new prepare agree with get_refund_status).
 */
export function openAt(now: Date): Prisma.ProposalWhereInput {
  return { OR: [{ status: { in: [...inPaymentStatuses] } }, { status: proposalStatus.pendingApproval, expiresAt: { gt: now } }] };
}

/** The open proposals of one order at `now`, optionally not counting one. */
export function openProposalsWhere(orderId: string, now: Date, excludeId?: string): Prisma.ProposalWhereInput {
  return { orderId, ...(excludeId ? { id: { not: excludeId } } : {}), ...openAt(now) };
}

export type RefundableLeft = { leftMinor: number; refundedOrPendingMinor: number; openProposalsMinor: number };

/**
 * What may still be proposed for refund on an order: captured − refunds that succeeded or are pending −
 * open proposals (optionally not counting one, the proposal being checked). The one place this sum is
 * made; callers hold the order's row lock when they act on the answer.
 */
export async function refundableLeft(
  tx: Tx,
  order: { id: string; capturedMinor: number },
  opts: { now: Date; excludeProposalId?: string },
): Promise<RefundableLeft> {
  // Sequential on purpose: one transaction is one connection.
  const refunds = await tx.refund.aggregate({
    where: { orderId: order.id, status: { in: [refundStatus.succeeded, refundStatus.pending] } },
    _sum: { amountMinor: true },
  });
  const open = await tx.proposal.aggregate({ where: openProposalsWhere(order.id, opts.now, opts.excludeProposalId), _sum: { amountMinor: true } });
  const refundedOrPendingMinor = refunds._sum.amountMinor ?? 0;
  const openProposalsMinor = open._sum.amountMinor ?? 0;
  return {
    leftMinor: refundableMinor({ capturedMinor: order.capturedMinor, refundedOrPendingMinor, openProposalsMinor }),
    refundedOrPendingMinor,
    openProposalsMinor,
  };
}
