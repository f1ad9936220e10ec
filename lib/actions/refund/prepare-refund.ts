import "server-only";
import { failure } from "@/lib/domain/agent-protocol";
import { proposalStatus } from "@/lib/domain/proposal-state";
import type { PrepareRefundInput } from "./tools";
import { sql, type Sql, nowUtc } from "@/lib/server/db/sql";
import type { HandlerResult, ToolContext } from "@/lib/server/agent/tool-context";
import { orderNotFound } from "@/lib/server/orders/order-not-found";
import {
  buildProposal,
  proposalFactsJoins,
  proposalFactsOf,
  type ProposalFactsRow,
} from "@/lib/server/proposals/build-proposal";
import { refundableLeftLive } from "@/lib/server/proposals/refundable-left";
import { approvalRequired, type PendingProposalAnswer } from "./proposal-answer";

type LockedOrder = { id: string; number: string; currency: string; capturedMinor: number; status: string };

/**
 * prepare_refund: a proposal (no effect yet) whose amount, currency and recipient come from the database.
 * Runs in the gateway's pg transaction (the typed SQL layer, lib/server/db/sql.ts): the hot path, off Prisma's pipeline.
 *
 * Race-free: the order row is locked (SELECT … FOR UPDATE) for the rest of the transaction, so concurrent
 * calls for one order run one after the other; the second finds the first's pending proposal and answers
 * it. The partial unique index "one pending proposal per order" backs this up in the schema.
 */
export async function prepareRefund(tx: Sql, input: PrepareRefundInput, ctx: ToolContext): Promise<HandlerResult> {
  if (!ctx.customerId) throw new Error("prepare_refund needs a verified customer");
  const { tenantId } = ctx.caller;
  const [order] = (
    await sql<LockedOrder>`
    SELECT "id", "number", "currency", "capturedMinor", "status"::text AS "status"
      FROM "Order"
     WHERE "tenantId" = ${tenantId}::uuid AND "number" = ${input.order_id} AND "customerId" = ${ctx.customerId}
     FOR UPDATE`.execute(tx)
  ).rows;
  if (!order) return { outcome: orderNotFound(input.order_id) };

  const now = new Date();
  // One statement for everything decided under the lock: the open proposal, the last rejection (cool-down),
  // the proposal a new one would supersede, and what a new one is built from (buildProposal's facts).
  const [seen] = (
    await sql<SeenRow & ProposalFactsRow>`
    SELECT pe.*, rj.*, sp.*, facts.*, pay.*
      FROM (SELECT 1) one
      LEFT JOIN LATERAL (
        SELECT p."id", p."hash", p."amountMinor", p."currency", p."recipientKind", p."recipientDisplay", p."recipientHolder",
               p."reason", p."expiresAt", p."requiredApprovals"
          FROM "Proposal" p WHERE p."orderId" = ${order.id}::uuid AND p."status" = ${proposalStatus.pendingApproval}::"ProposalStatus" LIMIT 1
      ) pe ON true
      LEFT JOIN LATERAL (
        SELECT p."id" AS "rejectedId", p."hash" AS "rejectedHash", p."rejectionReason", p."decidedAt" AS "rejectedAt"
          FROM "Proposal" p WHERE p."orderId" = ${order.id}::uuid AND p."status" = ${proposalStatus.rejected}::"ProposalStatus"
         ORDER BY p."decidedAt" DESC, p."id" DESC LIMIT 1
      ) rj ON true
      LEFT JOIN LATERAL (
        SELECT p."id" AS "latestId", p."status"::text AS "latestStatus",
               EXISTS (SELECT 1 FROM "Proposal" s WHERE s."supersedesId" = p."id") AS "latestSuperseded"
          FROM "Proposal" p WHERE p."orderId" = ${order.id}::uuid
         ORDER BY p."createdAt" DESC, p."id" DESC LIMIT 1
      ) sp ON true
      ${proposalFactsJoins(tenantId, order.id, now)}`.execute(tx)
  ).rows;
  if (!seen) throw new Error("tenant not found");
  const facts = proposalFactsOf(seen);
  const pending = seen.id ? (seen as SeenRow & PendingProposal) : null;
  if (pending && pending.expiresAt > now) {
    // Same logical operation: answer the open proposal, do not make another one.
    return {
      outcome: approvalRequired(pending, order.number),
      proposal: { id: pending.id, hash: pending.hash },
      audit: { order: order.number, reused: true },
    };
  }
  const cooldown = rejectionCooldown(seen, facts.policy.rejectionCooldownMinutes, now);
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
    await sql`
      UPDATE "Proposal" SET "status" = ${proposalStatus.expired}::"ProposalStatus", "updatedAt" = ${nowUtc}
       WHERE "id" = ${pending.id}::uuid AND "status" = ${proposalStatus.pendingApproval}::"ProposalStatus"`.execute(tx);
  }
  // The proposal a new one replaces: the order's latest when it ended expired or invalidated — whoever ended
  // it (this call, the expiry sweep, a status check, an approval attempt, the worker's revalidation) — and
  // nothing replaced it yet. Read again only when this call has just expired a pending one (rare).
  const supersedesId = pending
    ? await supersedableProposal(tx, order.id)
    : seen.latestId &&
        !seen.latestSuperseded &&
        (seen.latestStatus === proposalStatus.expired || seen.latestStatus === proposalStatus.invalidated)
      ? seen.latestId
      : null;

  // The provider as the truth: what it captured and every refund on the payment, made anywhere (one round trip,
  // under the order's lock so nothing of ours changes meanwhile). Not answering → temporarily_unavailable.
  const live = facts.payment
    ? await refundableLeftLive(
        tx,
        {
          tenantId,
          orderId: order.id,
          provider: facts.payment.provider,
          paymentRef: facts.payment.providerPaymentRef,
          ledgerCapturedMinor: order.capturedMinor,
          payment: { currency: facts.payment.currency, capturedMinor: facts.payment.amountMinor },
        },
        { now },
      )
    : null;
  if (live && !live.ok) {
    if (live.reason === "payment_not_at_provider") {
      return {
        outcome: failure(
          "permission_denied",
          `The payment of order ${JSON.stringify(order.number)} is not known to the payment provider.`,
          {
            order_id: order.number,
            reason: "payment_not_at_provider",
          },
        ),
        audit: { order: order.number },
      };
    }
    if (live.reason === "payment_mismatch") {
      // The provider holds something else under the reference (another currency or capture): never derive an
      // amount from it. The message names no other tenant, order or figure.
      return {
        outcome: failure(
          "permission_denied",
          `The payment of order ${JSON.stringify(order.number)} does not match what the payment provider holds for it (${live.field === "currency" ? "currency" : "captured amount"}); it cannot be refunded through this product until the shop corrects it.`,
          { order_id: order.number, reason: "payment_mismatch" },
        ),
        audit: { order: order.number, mismatch: live.field },
      };
    }
    return {
      outcome: failure(
        "temporarily_unavailable",
        "The payment provider did not answer, so the amount cannot be derived now. Try again once after the wait.",
        {
          order_id: order.number,
          retry_after_seconds: PROVIDER_RETRY_AFTER_SECONDS,
        },
      ),
      audit: { order: order.number, provider: "unavailable" },
    };
  }
  const derivedFacts = live
    ? { ...facts, refundedOrPendingMinor: live.refundedOrPendingMinor, openProposalsMinor: live.openProposalsMinor }
    : facts;

  const built = await buildProposal(
    tx,
    {
      tenantId,
      order: live ? { ...order, capturedMinor: live.capturedMinor } : order,
      customerId: ctx.customerId,
      reason: input.reason,
      requester: { agentKeyId: ctx.caller.keyId },
      channelId: ctx.caller.channelId,
      endUserId: ctx.customerId,
      traceId: ctx.traceId,
      supersedesId,
      now,
    },
    derivedFacts,
  );
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
      outcome: failure(
        "permission_denied",
        `Order ${JSON.stringify(order.number)} has no payment that can be refunded.`,
        {
          order_id: order.number,
          reason: "no_payment",
        },
      ),
    };
  }
  const { proposal, payment } = built;
  return {
    outcome: approvalRequired(proposal, order.number),
    proposal: { id: proposal.id, hash: proposal.hash },
    audit: {
      order: order.number,
      reused: false,
      amount: { minor: proposal.amountMinor, currency: proposal.currency },
      supersedes: supersedesId,
    },
    knownPersonal: [payment.holderName],
  };
}

type PendingProposal = PendingProposalAnswer;

/** How long an agent waits after `temporarily_unavailable` before its one more try. */
const PROVIDER_RETRY_AFTER_SECONDS = 30;

type SeenRow = { [K in keyof PendingProposal]: PendingProposal[K] | null } & {
  rejectedId: string | null;
  rejectedHash: string | null;
  rejectionReason: string | null;
  rejectedAt: Date | null;
  latestId: string | null;
  latestStatus: string | null;
  latestSuperseded: boolean | null;
};

/**
 * The tenant's cool-down after a rejection: while it runs, re-preparing the same order answers `rejected`
 * with the reviewer's reason, so an agent cannot simply ask again until a reviewer says yes.
 */
function rejectionCooldown(seen: SeenRow, cooldownMinutes: number, now: Date) {
  if (!seen.rejectedId || !seen.rejectedHash || !seen.rejectedAt) return null;
  const until = new Date(seen.rejectedAt.getTime() + cooldownMinutes * 60_000);
  if (until <= now) return null;
  return {
    proposalId: seen.rejectedId,
    hash: seen.rejectedHash,
    reason: seen.rejectionReason ?? null,
    rejectedAt: seen.rejectedAt.toISOString(),
    until: until.toISOString(),
  };
}

/** supersedesId's rule, read from the database (after this call expired the pending proposal). */
async function supersedableProposal(tx: Sql, orderId: string): Promise<string | null> {
  const [latest] = (
    await sql<{ id: string; status: string; superseded: boolean }>`
    SELECT p."id", p."status"::text AS "status", EXISTS (SELECT 1 FROM "Proposal" s WHERE s."supersedesId" = p."id") AS "superseded"
      FROM "Proposal" p WHERE p."orderId" = ${orderId}::uuid
     ORDER BY p."createdAt" DESC, p."id" DESC LIMIT 1`.execute(tx)
  ).rows;
  if (!latest || latest.superseded) return null;
  return latest.status === proposalStatus.expired || latest.status === proposalStatus.invalidated ? latest.id : null;
}
