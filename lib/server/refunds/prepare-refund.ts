import "server-only";
import { failure } from "@/lib/domain/agent-protocol";
import { proposalStatus } from "@/lib/domain/proposal-state";
import type { PrepareRefundInput } from "@/lib/schemas/tools";
import type { Tx } from "@/lib/server/db/client";
import type { HandlerResult, ToolContext } from "@/lib/server/agent/tool-context";
import { orderNotFound } from "@/lib/server/orders/order-not-found";
import { buildProposal } from "@/lib/server/proposals/build-proposal";
import { approvalRequired } from "./proposal-answer";

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
  const pending = await tx.proposal.findFirst({ where: { orderId: order.id, status: proposalStatus.pendingApproval } });
  if (pending && pending.expiresAt > now) {
    // Same logical operation: answer the open proposal, do not make another one.
    return { outcome: approvalRequired(pending, order.number), proposal: { id: pending.id, hash: pending.hash }, audit: { order: order.number, reused: true } };
  }
  const cooldown = await rejectionCooldown(tx, order.id, now);
  if (cooldown) {
    return {
      outcome: failure(
        "rejected",
        `A reviewer rejected a refund for order ${JSON.stringify(order.number)} on ${cooldown.rejectedAt}. It cannot be requested again before ${cooldown.until}. Tell the customer the reason; do not retry.`,
        {
          order_id: order.number,
          reason: cooldown.reason,
          rejected_at: cooldown.rejectedAt,
          retry_after: cooldown.until,
          previous_proposal_id: cooldown.proposalId,
        },
      ),
      proposal: { id: cooldown.proposalId, hash: cooldown.hash },
      audit: { order: order.number, cooldown: true },
    };
  }
  if (pending) {
    await tx.proposal.updateMany({ where: { id: pending.id, status: proposalStatus.pendingApproval }, data: { status: proposalStatus.expired } });
  }
  const supersedesId = await supersedableProposal(tx, order.id);

  const built = await buildProposal(tx, {
    tenantId,
    order,
    customerId: ctx.customerId,
    reason: input.reason,
    requester: { agentKeyId: ctx.caller.keyId },
    channelId: ctx.caller.channelId,
    endUserId: ctx.customerId,
    traceId: ctx.traceId,
    supersedesId,
    now,
  });
  if (!built.ok && built.reason === "nothing_left_to_refund") {
    return {
      outcome: failure(
        "permission_denied",
        `Nothing is left to refund on order ${JSON.stringify(order.number)}: it was already refunded or a refund is already in progress.`,
        {
          order_id: order.number,
          reason: "nothing_left_to_refund",
        },
      ),
      audit: { order: order.number },
    };
  }
  if (!built.ok) {
    return {
      outcome: failure("permission_denied", `Order ${JSON.stringify(order.number)} has no payment that can be refunded.`, {
        order_id: order.number,
        reason: "no_payment",
      }),
    };
  }
  const { proposal, payment } = built;
  return {
    outcome: approvalRequired(proposal, order.number),
    proposal: { id: proposal.id, hash: proposal.hash },
    audit: { order: order.number, reused: false, amount: { minor: proposal.amountMinor, currency: proposal.currency }, supersedes: supersedesId },
    knownPersonal: [payment.holderName],
  };
}

/**
 * The tenant's cool-down after a rejection: while it runs, re-preparing the same order answers `rejected`
 * with the reviewer's reason, so an agent cannot simply ask again until a reviewer says yes.
 */
async function rejectionCooldown(tx: Tx, orderId: string, now: Date) {
  const last = await tx.proposal.findFirst({
    where: { orderId, status: proposalStatus.rejected },
    orderBy: [{ decidedAt: "desc" }, { id: "desc" }],
    select: { id: true, hash: true, rejectionReason: true, decidedAt: true, tenant: { select: { rejectionCooldownMinutes: true } } },
  });
  if (!last?.decidedAt) return null;
  const until = new Date(last.decidedAt.getTime() + last.tenant.rejectionCooldownMinutes * 60_000);
  if (until <= now) return null;
  return { proposalId: last.id, hash: last.hash, reason: last.rejectionReason ?? null, rejectedAt: last.decidedAt.toISOString(), until: until.toISOString() };
}

/**
 * The proposal a new one for this order replaces: the order's latest proposal when it ended expired or
 * invalidated — whoever ended it (this call, the expiry sweep, a status check, an approval attempt, the
 * worker's revalidation) — and nothing replaced it yet.
 */
async function supersedableProposal(tx: Tx, orderId: string): Promise<string | null> {
  const latest = await tx.proposal.findFirst({
    where: { orderId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true, status: true, supersededBy: { select: { id: true } } },
  });
  if (!latest || latest.supersededBy) return null;
  return latest.status === proposalStatus.expired || latest.status === proposalStatus.invalidated ? latest.id : null;
}
