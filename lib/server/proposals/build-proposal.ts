import "server-only";
import { randomUUID } from "node:crypto";
import { computeProposalHash, hashInputOf } from "@/lib/domain/proposal-hash";
import { proposalAmountMinor, proposalExpiresAt, requiredApprovalsFor } from "@/lib/domain/proposal-policy";
import type { Tx } from "@/lib/server/db/client";
import type { Payment, Proposal } from "@/lib/server/db/generated/client";
import { notifyReviewersOfProposal } from "@/lib/server/notifications/notify-reviewers";
import { refundableLeft } from "./refundable-left";

/** Who asks for the proposal: an agent key (prepare_refund) or a staff member (re-prepare, edit). */
export type ProposalRequester = { agentKeyId: string } | { staffId: string };

export type BuildProposalInput = {
  tenantId: string;
  /** The order, locked by the caller (SELECT … FOR UPDATE) for the rest of the transaction. */
  order: { id: string; currency: string; capturedMinor: number };
  customerId: string;
  reason: string;
  requester: ProposalRequester;
  channelId: string | null;
  endUserId: string | null;
  traceId: string;
  supersedesId: string | null;
  /** Cap the amount at this (an edit lowers it); default: everything left to refund. */
  wantedMinor?: number;
  now: Date;
};

export type BuildProposalResult = { ok: true; proposal: Proposal; payment: Payment } | { ok: false; reason: "nothing_left_to_refund" | "no_payment" };

/**
 * The one proposal builder (prepare_refund, re-prepare, edit): every number comes from the database and
 * the tenant's policy, never from the caller — amount = what is left to refund now (capped by `wantedMinor`),
 * recipient = the order's original payment as it is now, expiry and required approvals from the tenant's
 * policy, a new id, and the hash over exactly the row that is stored. The reviewer webhook delivery is
 * committed with the row. The caller holds the order's row lock and decides what the proposal supersedes.
 */
export async function buildProposal(tx: Tx, input: BuildProposalInput): Promise<BuildProposalResult> {
  const { tenantId, order, now } = input;
  const left = await refundableLeft(tx, order, { now });
  const amountMinor = proposalAmountMinor(left.leftMinor, input.wantedMinor);
  if (amountMinor <= 0) return { ok: false, reason: "nothing_left_to_refund" };
  const payment = await tx.payment.findFirst({ where: { orderId: order.id, tenantId }, orderBy: { createdAt: "asc" } });
  if (!payment) return { ok: false, reason: "no_payment" };
  const policy = await tx.tenant.findUniqueOrThrow({
    where: { id: tenantId },
    select: { approvalExpiryMinutes: true, dualApprovalThresholdMinor: true, policyVersion: true },
  });

  const row = {
    id: randomUUID(),
    tenantId,
    orderId: order.id,
    customerId: input.customerId,
    paymentId: payment.id,
    requestedByAgentKeyId: "agentKeyId" in input.requester ? input.requester.agentKeyId : null,
    requestedByStaffId: "staffId" in input.requester ? input.requester.staffId : null,
    channelId: input.channelId,
    endUserId: input.endUserId,
    amountMinor,
    currency: order.currency,
    recipientKind: payment.method,
    recipientRef: payment.providerPaymentRef,
    recipientHolder: payment.holderName,
    recipientDisplay: payment.display,
    reason: input.reason,
    expiresAt: proposalExpiresAt(now, policy.approvalExpiryMinutes),
    requiredApprovals: requiredApprovalsFor(amountMinor, policy.dualApprovalThresholdMinor),
    // The policy version these values came from (read in the same statement); hashed (hash v2).
    policyVersion: policy.policyVersion,
    supersedesId: input.supersedesId,
    traceId: input.traceId,
  };
  const proposal = await tx.proposal.create({ data: { ...row, hash: computeProposalHash(hashInputOf(row)) } });
  // A new proposal awaits review: the tenant's reviewer webhook hears of it (a delivery job committed with it).
  await notifyReviewersOfProposal(tx, proposal);
  return { ok: true, proposal, payment };
}
