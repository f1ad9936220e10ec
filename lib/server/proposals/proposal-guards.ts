import "server-only";
import type { Tx } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import type { Prisma } from "@/lib/server/db/generated/client";
import { proposalStatus, type ProposalStatus } from "@/lib/domain/proposal-state";
import { storedProposalIntact, type HashableProposal } from "@/lib/domain/proposal-hash";
import type { AsRefund } from "@/lib/domain/refund-row";
import { refundableLeft } from "./refundable-left";
import { lockOrderThenProposal } from "./locks";

/**
 * Locks one proposal of the tenant for the rest of the transaction (SELECT … FOR UPDATE), so every
 * decision on it runs one at a time: no double approval, no approve-while-rejecting. Its order row is
 * locked first (./locks.ts: the one lock order), so a decision never deadlocks with the Orders API,
 * prepare_refund or the provider's webhook. Another tenant's proposal is simply not found.
 */
export async function lockProposal(tx: Tx, tenantId: string, id: string) {
  const locked = await lockOrderThenProposal(sqlOf(tx), tenantId, id);
  if (!locked) return null;
  return tx.proposal.findUniqueOrThrow({
    where: { id },
    include: { order: true, payment: true, tenant: true, approvals: { select: { approverId: true } } },
  });
}

/** A proposal as lockProposal returns it: the row with its order, payment, tenant and approvers. */
export type LockedProposal = NonNullable<Awaited<ReturnType<typeof lockProposal>>>;

/**
 * Closes a proposal that is still pending approval — the guarded UPDATE every reviewer decision ends with
 * (`WHERE status = pending_approval`), so a proposal another transaction already moved is never moved twice.
 * Returns whether this call moved it.
 */
export async function closePending(
  tx: Tx,
  id: string,
  data: Omit<Prisma.ProposalUpdateManyMutationInput, "status"> & { status: ProposalStatus },
): Promise<boolean> {
  const moved = await tx.proposal.updateMany({ where: { id, status: proposalStatus.pendingApproval }, data });
  return moved.count === 1;
}

/** Whether the stored row still hashes to its recorded hash and asks for at least one approval. */
export const storedIntact = storedProposalIntact;

/**
 * Why the proposal no longer matches its order, or null when it still does: the order was cancelled
 * or fully refunded, the payment (the recipient: method, reference, holder or its masked display, or its provider) changed, or what is left to refund — counting refunds
 * made elsewhere and other open proposals — no longer covers this proposal's amount.
 */
export async function orderMismatch(
  tx: Tx,
  p: AsRefund<HashableProposal> & {
    /** A follow-up step (the refund that goes with a cancellation): its order was cancelled by its parent. */
    parentId?: string | null;
    order: { capturedMinor: number; status: string; currency: string };
    payment: { method: string; providerPaymentRef: string; holderName: string; display: string; provider: string };
  },
  now: Date = new Date(),
): Promise<string | null> {
  if ((p.order.status === "cancelled" && !p.parentId) || p.order.status === "refunded")
    return `order_${p.order.status}`;
  if (p.order.currency !== p.currency) return "currency_changed";
  if (
    p.payment.method !== p.recipientKind ||
    p.payment.providerPaymentRef !== p.recipientRef ||
    p.payment.holderName !== p.recipientHolder ||
    // What the reviewer reads as the recipient ("Visa •••• 4242") is part of the action (hashed from v4 on).
    p.payment.display !== p.recipientDisplay
  ) {
    return "recipient_changed";
  }
  // Where the money is (the provider, read live, or the shop's own ledger for `manual`) is part of what was approved
  // (hash v3 source.provider): a switch under an open proposal would skip the live read before paying. Null: v1/v2.
  if (p.sourceProvider !== null && p.payment.provider !== p.sourceProvider) return "payment_changed";
  const left = await refundableLeft(
    sqlOf(tx),
    { id: p.orderId, capturedMinor: p.order.capturedMinor },
    { now, excludeProposalId: p.id },
  );
  return left.leftMinor < p.amountMinor ? "amount_no_longer_refundable" : null;
}

/**
 * The decider's own review claim ends with their decision (approve or reject), in the decision's transaction:
 * the others are no longer told "X is reviewing this" about a proposal X has finished with. Only a claim the
 * decider holds is cleared (someone else's claim stays theirs); answers whether one was cleared.
 */
export async function releaseOwnClaim(tx: Tx, proposalId: string, staffUserId: string): Promise<boolean> {
  const cleared = await tx.proposal.updateMany({
    where: { id: proposalId, claimedByStaffId: staffUserId },
    data: { claimedByStaffId: null, claimExpiresAt: null },
  });
  return cleared.count === 1;
}
