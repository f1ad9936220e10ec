import "server-only";
// What the core asks of the order-cancellation kind about one of its proposals (../kind.server.ts, KindBehaviour).
//
// Two keyed steps under the one approval (docs/action-kinds.md, "Steps"):
//   1. The shop cancels the order — the shop's action endpoint, key `cancel_order-<proposal id>` (the action endpoint
//      executor: exactly once, in doubt → looked up by its key, never re-sent with another).
//   2. The refund that went with it — a refund proposal whose parent is the cancellation, created in the transaction
//      that records step 1's success (so never without it, and at most once: a unique index on the parent), approved
//      by the cancellation's approval (`followUp.authorises`: its amount, currency and recipient are exactly the
//      hashed refund the reviewers approved), then paid by the refund's own chain with its own key
//      (`refund-<follow-up id>`): the payment provider, or ops' recorded payout for a manual payment. Its execution
//      appears on the Executions page like any refund, in doubt and "Check now" included.
// revalidate (before step 1): the order as it is now against what the cancellation was derived from — cancelled or
// shipped since, its items or total changed, or the refund it would make now is not the one approved.
import { formatMinor } from "@/lib/domain/format-money";
import { asRefund } from "@/lib/domain/refund-row";
import { sqlOf } from "@/lib/server/db/sql";
import { actionEndpointExecutor, type ExecutedProposal } from "@/lib/server/executions/action-endpoint-executor";
import { enqueueJob } from "@/lib/server/jobs/enqueue";
import { buildProposal, readProposalFacts } from "@/lib/server/proposals/build-proposal";
import { invalidateUnfitProposals } from "@/lib/server/proposals/invalidate-unfit-proposals";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import type { KindBehaviour, KindReview } from "../kind.server";
import canonicalize from "canonicalize";
import { agentAction, cancellationRefusal, orderOf, refundOf, sameRefund, type CancellationParams } from "./prepare";

const paramsOf = (p: { params: unknown }) => p.params as CancellationParams;

async function revalidate(...[tx, p, now]: Parameters<KindBehaviour["revalidate"]>): Promise<string | null> {
  // The order row, locked first by lockProposal (the one lock order), as the shop last reported it.
  if (!p.order) return "order_not_found";
  const refusal = cancellationRefusal({ status: p.order.status, fulfilment: p.order.fulfilment });
  if (refusal) return refusal;
  const params = paramsOf(p);
  const customer = await tx.customer.findUnique({
    where: { tenantId_id: { tenantId: p.tenantId, id: p.order.customerId } },
    select: { name: true },
  });
  let order;
  try {
    order = orderOf({ ...p.order, customerName: customer?.name ?? "" });
  } catch {
    return "order_changed"; // items no longer in a shape the hash can hold
  }
  if (canonicalize(order) !== canonicalize(params.order)) return "order_changed";
  // The refund the cancellation would make now (the ledger as it is, this proposal's own refund not yet counted).
  const facts = await readProposalFacts(sqlOf(tx), p.tenantId, p.order.id, now);
  return sameRefund(refundOf(p.order, facts), params.refund) ? null : "refund_changed";
}

const money = (minor: number, currency: string) => formatMinor(minor, currency, "en");

/** The cancellation and its refund, from the hashed params only. */
function review(raw: unknown): KindReview {
  const params = raw as CancellationParams;
  const refund = params.refund;
  const total = money(params.order.totalMinor, params.order.currency);
  const items = params.order.items.map((i) => `${i.quantity} × ${i.name} (${i.sku})`).join("; ");
  const refundText = refund ? money(refund.amountMinor, refund.currency) : null;
  const recipient = refund ? `${refund.recipient.display} (${refund.recipient.holder})` : null;
  return {
    fields: [
      { key: "order", before: null, after: params.order.number, changed: false },
      { key: "customer", before: null, after: params.order.customerName, changed: false },
      { key: "items", before: null, after: items, changed: false },
      { key: "total", before: null, after: total, changed: false },
      { key: "status", before: "open", after: "cancelled", changed: true },
      { key: "refund", before: null, after: refundText, changed: refund !== null },
      { key: "recipient", before: null, after: recipient, changed: false },
      { key: "reason", before: null, after: params.reason, changed: false },
    ],
    sentence: {
      order: params.order.number,
      refund: refundText ?? "none",
      recipient: recipient ?? "",
    },
    summary: refund ? `${params.order.number}: ${refundText} → ${refund.recipient.display}` : params.order.number,
  };
}

const WORKER = { type: "system" as const, id: "worker", authMethod: "job" };

export const cancelOrderBehaviour: KindBehaviour = {
  // Money leaves: always a reviewer (tenant policy may ask the customer too).
  confirmation: { floor: "reviewers" },
  revalidate,
  review,
  agentAction: (p) => agentAction(paramsOf(p)),
  followUp: {
    // The follow-up refund is exactly the refund the reviewers approved: same order, amount, currency and recipient.
    authorises(parent, child) {
      const refund = paramsOf(parent).refund;
      if (!refund || child.kind !== "refund" || child.orderId !== parent.orderId) return false;
      const r = asRefund(child);
      return (
        r.amountMinor === refund.amountMinor &&
        r.currency.trim() === refund.currency &&
        r.recipientKind === refund.recipient.kind &&
        r.recipientRef === refund.recipient.ref &&
        r.recipientHolder === refund.recipient.holder &&
        r.recipientDisplay === refund.recipient.display
      );
    },
  },
  executor: actionEndpointExecutor({
    revalidate,
    request: (p: ExecutedProposal) => {
      const params = paramsOf(p);
      return { subject: { type: "order", ref: params.order.number }, params: { reason: params.reason } };
    },
    // Step 1 done: our copy of the order is cancelled, its other pending refunds end, and step 2 — the refund that
    // went with it — is created approved under this approval and queued, all in the transaction recording the success.
    settle: async (tx, p) => {
      if (!p.orderId) throw new Error("a cancellation concerns an order");
      const now = new Date();
      await tx.order.update({ where: { id: p.orderId }, data: { status: "cancelled" } });
      const caller = { tenantId: p.tenantId, actorId: "worker", authMethod: "job", source: "cancel_order" };
      await invalidateUnfitProposals(tx, caller, p.orderId, p.traceId, now);
      const refund = paramsOf(p).refund;
      if (!refund) return;
      const order = await tx.order.findUniqueOrThrow({
        where: { id: p.orderId },
        select: { id: true, currency: true, capturedMinor: true },
      });
      const built = await buildProposal(sqlOf(tx), {
        tenantId: p.tenantId,
        order,
        customerId: p.customerId ?? "",
        reason: "cancelled_order",
        requester: p.requestedByAgentKeyId
          ? { agentKeyId: p.requestedByAgentKeyId }
          : { staffId: p.requestedByStaffId ?? "" },
        channelId: p.channelId,
        endUserId: p.endUserId,
        traceId: p.traceId,
        supersedesId: null,
        wantedMinor: refund.amountMinor,
        followUpOf: { parentId: p.id, requiredApprovals: p.requiredApprovals },
        now,
      });
      if (built.ok) {
        await enqueueJob(sqlOf(tx), "execute_refund", { proposalId: built.proposal.id });
        return;
      }
      // Less is refundable now than was approved (a refund made elsewhere between the revalidation and the shop's
      // answer): the shop has cancelled, and no other amount is paid without a review. Recorded in the trace.
      await recordAuditEvent(sqlOf(tx), {
        tenantId: p.tenantId,
        traceId: p.traceId,
        actor: WORKER,
        action: "execution:follow_up",
        outcome: "invalidated",
        proposal: { id: p.id, hash: p.hash },
        data: { reason: built.reason, approvedMinor: refund.amountMinor },
        redaction: { clear: ["reason", "approvedMinor"] },
      });
    },
  }),
};
