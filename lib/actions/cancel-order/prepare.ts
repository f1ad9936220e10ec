import "server-only";
// prepare_order_cancellation (the kind's derive, docs/action-kinds.md): under the order's row lock, from the order as
// the shop last reported it and the payments ledger — the order must be the signed-in customer's, not cancelled and
// not shipped; the refund that goes with the cancellation is everything still refundable, to the original payment
// (the same sums prepare_refund reads, build-proposal.ts). The hashed params are what the reviewer reads: the order
// (number, customer, items, total) and the refund (amount, currency, recipient), or no refund when nothing was paid.
// Policy: one reviewer, two when the refund reaches the tenant's two-reviewer threshold (as a refund of that amount).
import canonicalize from "canonicalize";
import { failure, type ToolOutcome } from "@/lib/domain/agent-protocol";
import { itemsOf, type ProposalItem } from "@/lib/domain/proposal-hash";
import { requiredApprovalsFor } from "@/lib/domain/proposal-policy";
import { MAX_WAIT_SECONDS } from "@/lib/schemas/agent-inputs";
import type { HandlerResult, ToolContext } from "@/lib/server/agent/tool-context";
import { sql, type Sql } from "@/lib/server/db/sql";
import { orderNotFound } from "@/lib/server/orders/order-not-found";
import { kindApprovalRequired } from "@/lib/server/proposals/agent-answer";
import { readProposalFacts, type ProposalFacts } from "@/lib/server/proposals/build-proposal";
import { insertKindProposal, type KindProposal } from "@/lib/server/proposals/insert-kind-proposal";
import {
  cooldownRefusal,
  hasActionEndpoint,
  pendingProposalOf,
  rejectionsInCooldown,
  replacePending,
} from "@/lib/server/proposals/kind-prepare";
import { leftOf } from "@/lib/server/proposals/refundable-left";
import { CANCEL_ORDER_KIND, type PrepareOrderCancellationInput } from "./tools";

/** The refund that goes with the cancellation, as hashed: the amount and exactly where it goes. */
export type CancellationRefund = {
  amountMinor: number;
  currency: string;
  /** The original payment: its method, the provider's reference, the holder and the masked form a reviewer reads. */
  recipient: { kind: string; ref: string; holder: string; display: string; provider: string };
};

/** The hashed params of a cancellation: exactly what a reviewer approves. */
export type CancellationParams = {
  order: { number: string; customerName: string; items: ProposalItem[]; totalMinor: number; currency: string };
  /** Null when nothing is left to refund (nothing was captured, or everything was refunded already). */
  refund: CancellationRefund | null;
  /** The money it pays out (the refund's), counted by the reviewers' daily cap (lib/domain/action-money.ts). */
  money: { minor: number; currency: string } | null;
  reason: string;
};

type LockedOrder = {
  id: string;
  number: string;
  status: string;
  fulfilment: string;
  currency: string;
  totalMinor: number;
  capturedMinor: number;
  items: unknown;
  customerName: string;
};

/** Why the order cannot be cancelled now, or null. */
export function cancellationRefusal(order: { status: string; fulfilment: string }): string | null {
  if (order.status === "cancelled") return "order_cancelled";
  if (order.fulfilment !== "unfulfilled") return `order_${order.fulfilment}`;
  return null;
}

/** The order as hashed, from its row (items in the hash's exact shape; anything else throws). */
export function orderOf(order: Omit<LockedOrder, "id" | "status" | "fulfilment" | "capturedMinor">) {
  return {
    number: order.number,
    customerName: order.customerName,
    items: itemsOf(order.items),
    totalMinor: order.totalMinor,
    currency: order.currency.trim(),
  };
}

/** The refund a cancellation of the order would make now: everything still refundable, to its original payment. */
export function refundOf(order: { capturedMinor: number; currency: string }, facts: ProposalFacts) {
  const { leftMinor } = leftOf(order.capturedMinor, {
    leftRefundedMinor: facts.refundedOrPendingMinor,
    leftOpenMinor: facts.openProposalsMinor,
  });
  if (leftMinor <= 0 || !facts.payment) return null;
  const p = facts.payment;
  return {
    amountMinor: leftMinor,
    currency: order.currency.trim(),
    recipient: {
      kind: p.method,
      ref: p.providerPaymentRef,
      holder: p.holderName,
      display: p.display,
      provider: p.provider,
    },
  } satisfies CancellationRefund;
}

/** Two refunds (or none) compare equal when every hashed value is the same. */
export const sameRefund = (a: CancellationRefund | null, b: CancellationRefund | null) =>
  canonicalize(a) === canonicalize(b);

export async function prepareOrderCancellation(
  tx: Sql,
  input: PrepareOrderCancellationInput,
  ctx: ToolContext,
): Promise<HandlerResult> {
  if (!ctx.customerId) throw new Error("prepare_order_cancellation needs a verified customer");
  const { tenantId } = ctx.caller;
  const [order] = (
    await sql<LockedOrder>`
    SELECT o."id", o."number", o."status"::text AS "status", o."fulfilment"::text AS "fulfilment", o."currency",
           o."totalMinor", o."capturedMinor", o."items", c."name" AS "customerName"
      FROM "Order" o JOIN "Customer" c ON c."tenantId" = o."tenantId" AND c."id" = o."customerId"
     WHERE o."tenantId" = ${tenantId}::uuid AND o."number" = ${input.order_id} AND o."customerId" = ${ctx.customerId}
       FOR UPDATE OF o`.execute(tx)
  ).rows;
  if (!order) return { outcome: orderNotFound(input.order_id) };
  const audit = { order: order.number, reason: input.reason };

  const refusal = cancellationRefusal(order);
  if (refusal) {
    const why =
      refusal === "order_cancelled" ? "is already cancelled" : `has already ${refusal.slice("order_".length)}`;
    return {
      outcome: failure(
        "permission_denied",
        `Order ${JSON.stringify(order.number)} ${why}, so it can no longer be cancelled. Tell the customer${refusal === "order_cancelled" ? "" : "; a return may still be possible"}.`,
        { order_id: order.number, reason: refusal },
      ),
      audit,
    };
  }
  // Carried out by the shop's action endpoint: without one, nothing could ever cancel it — say so now.
  if (!(await hasActionEndpoint(tx, tenantId))) {
    return {
      outcome: failure(
        "permission_denied",
        "This shop has not connected order cancellations to the assistant yet; ask the customer to contact support.",
        { order_id: order.number, reason: "action_endpoint_not_configured" },
      ),
      audit,
    };
  }

  const subject = { type: "order", ref: order.id };
  const now = new Date();
  const facts = await readProposalFacts(tx, tenantId, order.id, now);
  const refund = refundOf(order, facts);
  const params: CancellationParams = {
    order: orderOf(order),
    refund,
    money: refund ? { minor: refund.amountMinor, currency: refund.currency } : null,
    reason: input.reason,
  };
  const pending = await pendingProposalOf(tx, tenantId, CANCEL_ORDER_KIND, subject);
  if (pending && pending.expiresAt > now) {
    const stored = pending.params as unknown as CancellationParams;
    // Asked again while it awaits review: the same proposal, as long as it still says what the order is now.
    if (canonicalize(stored.order) === canonicalize(params.order) && sameRefund(stored.refund, params.refund))
      return {
        outcome: approvalRequired(pending, stored, now),
        proposal: { id: pending.id, hash: pending.hash },
        audit: { ...audit, reused: true },
      };
  }
  // The tenant's cool-down after a rejection: a cancellation of this order a reviewer rejected is answered `rejected`
  // with the reviewer's reason until it ends, so an agent cannot simply ask again until someone says yes.
  const [rejected] = await rejectionsInCooldown(
    tx,
    tenantId,
    CANCEL_ORDER_KIND,
    subject,
    facts.policy.rejectionCooldownMinutes,
    now,
  );
  if (rejected) {
    return {
      ...cooldownRefusal(
        rejected,
        facts.policy.rejectionCooldownMinutes,
        `the cancellation of order ${JSON.stringify(order.number)}`,
        { order_id: order.number },
      ),
      audit: { ...audit, cooldown: true },
    };
  }
  // Expired but not yet swept, or the order changed since: the new proposal replaces it.
  if (pending) await replacePending(tx, pending.id, "replaced");

  const proposal = await insertKindProposal(tx, {
    tenantId,
    kind: CANCEL_ORDER_KIND,
    tool: "prepare_order_cancellation",
    subject,
    params,
    // What the cancellation and its refund were derived from: the order as the shop last reported it, and the ledger.
    source: {
      orderStatus: order.status,
      fulfilment: order.fulfilment,
      capturedMinor: order.capturedMinor,
      refundedOrPendingMinor: facts.refundedOrPendingMinor,
      openProposalsMinor: facts.openProposalsMinor,
    },
    reason: input.reason,
    orderId: order.id,
    customerId: ctx.customerId,
    orderNumber: order.number,
    requester: { agentKeyId: ctx.caller.keyId },
    channelId: ctx.caller.channelId,
    endUserId: ctx.customerId,
    traceId: ctx.traceId,
    // Money leaves with it: as many reviewers as a refund of that amount needs.
    requiredApprovals: params.refund
      ? requiredApprovalsFor(params.refund.amountMinor, facts.policy.dualApprovalThresholdMinor)
      : 1,
    policy: facts.policy,
    supersedesId: pending?.id ?? null,
    now,
  });
  return {
    outcome: approvalRequired(proposal, params, now),
    proposal: { id: proposal.id, hash: proposal.hash },
    audit: {
      ...audit,
      refundMinor: params.refund?.amountMinor ?? 0,
      currency: order.currency.trim(),
      reused: false,
      supersedes: pending?.id ?? null,
    },
    knownPersonal: [order.customerName, ...(params.refund ? [params.refund.recipient.holder] : [])],
  };
}

/** The cancellation as prepare_order_cancellation's answer and get_action_status name it (hashed params only). */
export function agentAction(params: CancellationParams) {
  return {
    order_id: params.order.number,
    items: params.order.items.map((i) => ({ sku: i.sku, name: i.name, quantity: i.quantity })),
    total: { minor: params.order.totalMinor, currency: params.order.currency },
    refund: params.refund
      ? {
          amount: { minor: params.refund.amountMinor, currency: params.refund.currency },
          recipient: {
            kind: params.refund.recipient.kind,
            display: params.refund.recipient.display,
            holder: params.refund.recipient.holder,
          },
        }
      : null,
    reason: params.reason,
  };
}

/** The `approval_required` answer: the exact cancellation (and refund) a person will be asked to approve. */
function approvalRequired(
  p: Pick<KindProposal, "id" | "hash" | "expiresAt" | "requiredApprovals">,
  params: CancellationParams,
  now: Date,
): ToolOutcome {
  return kindApprovalRequired(
    p,
    CANCEL_ORDER_KIND,
    agentAction(params),
    `A person must approve this cancellation before the shop cancels anything or any money is refunded. Tell the customer it awaits review${params.refund ? " and read them the refund amount" : ""}. To learn the decision, call get_action_status with wait_seconds: ${MAX_WAIT_SECONDS} (it answers as soon as a reviewer decides). Do not call prepare_order_cancellation again for this order.`,
    now,
  );
}
