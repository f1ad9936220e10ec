import "server-only";
// prepare_replacement_order (the kind's derive, docs/action-kinds.md): under the order's row lock, from the order as
// the shop last reported it and this order's earlier replacements — the order must be the signed-in customer's, not
// cancelled or refunded, and its goods delivered (or shipped and lost in transit: the system of record has no "lost"
// state, see orderRefusal); each SKU the model names must be on the order, and its quantity no more than the order
// holds less what was already replaced (replacement proposals approved, executing, in doubt or succeeded; a pending
// one is replaced by the new request — one pending proposal per order). The hashed params are what the reviewer
// reads: the original order, the items (names from the order, never the model), the price (always 0), the original
// order's shipping address and the reason. Policy: one reviewer, always.
import canonicalize from "canonicalize";
import { failure, type ToolOutcome } from "@/lib/domain/agent-protocol";
import type { PostalAddress } from "@/lib/domain/postal-address";
import { itemsOf } from "@/lib/domain/proposal-hash";
import { proposalStatus } from "@/lib/domain/proposal-state";
import { MAX_WAIT_SECONDS } from "@/lib/schemas/agent-inputs";
import type { HandlerResult, ToolContext } from "@/lib/server/agent/tool-context";
import { sql, type Sql } from "@/lib/server/db/sql";
import { orderNotFound } from "@/lib/server/orders/order-not-found";
import { kindApprovalRequired } from "@/lib/server/proposals/agent-answer";
import { insertKindProposal, readKindPolicy, type KindProposal } from "@/lib/server/proposals/insert-kind-proposal";
import {
  cooldownRefusal,
  hasActionEndpoint,
  pendingProposalOf,
  rejectionsInCooldown,
  replacePending,
} from "@/lib/server/proposals/kind-prepare";
import { REPLACEMENT_ORDER_KIND, type PrepareReplacementOrderInput, type ReplacementReason } from "./tools";

/** One line of the replacement, as hashed: the SKU, the name the order gives it, the units sent again. */
export type ReplacementItem = { sku: string; name: string; quantity: number };

/** The hashed params of a replacement order: exactly what a reviewer approves. */
export type ReplacementParams = {
  order: { number: string; customerName: string };
  items: ReplacementItem[];
  /** What the customer pays for it: always nothing. */
  price: { minor: number; currency: string };
  /** The original order's shipping address (the replacement goes where the original went). */
  shippingAddress: PostalAddress;
  reason: ReplacementReason;
};

/** Units per SKU, as the source keeps them (SKU order fixed). */
export type SkuUnits = { sku: string; quantity: number }[];

/** The hashed source: what the replacement was derived from. */
export type ReplacementSource = {
  orderStatus: string;
  fulfilment: string;
  /** Units of each SKU on the order. */
  ordered: SkuUnits;
  /** Units of each SKU replaced by earlier replacements (approved, executing, in doubt or succeeded). */
  replacedBefore: SkuUnits;
  /** Money refunded on the order at prepare (absent on proposals prepared before the rule). */
  refundedMinor?: number;
};

type LockedOrder = {
  id: string;
  number: string;
  status: string;
  fulfilment: string;
  currency: string;
  items: unknown;
  shippingAddress: PostalAddress | null;
  customerName: string;
};

/**
 * Why the order's goods cannot be replaced now, or null. The system of record knows `unfulfilled`, `shipped` and
 * `delivered` (no `lost`): goods lost in transit are an order that shipped and was never delivered, so a shipped order
 * is replaceable only for `lost_in_transit`; every other reason needs the goods delivered. A cancelled or fully
 * refunded order was already settled another way.
 */
export function orderRefusal(order: { status: string; fulfilment: string }, reason: ReplacementReason): string | null {
  if (order.status === "cancelled") return "order_cancelled";
  if (order.status === "refunded") return "order_refunded";
  if (order.fulfilment === "delivered") return null;
  if (order.fulfilment === "shipped" && reason === "lost_in_transit") return null;
  return "order_not_delivered";
}

/** The order's units per SKU (lines with one SKU added up) and each SKU's name (its first line's), in the order's order. */
export function orderedUnits(items: unknown): Map<string, { name: string; quantity: number; unitMinor: number }> {
  const out = new Map<string, { name: string; quantity: number; unitMinor: number }>();
  for (const line of itemsOf(items)) {
    const seen = out.get(line.sku);
    out.set(line.sku, {
      name: seen?.name ?? line.name,
      quantity: (seen?.quantity ?? 0) + line.quantity,
      // A unit's value: the dearest line's price of that SKU (never undervalues what was refunded or replaced).
      unitMinor: Math.max(seen?.unitMinor ?? 0, line.unitMinor),
    });
  }
  return out;
}

/**
 * The money refunded on the order, in any state but failed or cancelled (paid, or on its way), whoever made it. A refund
 * names no line (it is an amount), so the rule that refunded goods are not also replaced is one of value: see
 * `refundOverlap`.
 */
export async function refundedMinorOf(tx: Sql, tenantId: string, orderId: string): Promise<number> {
  const [row] = (
    await sql<{ total: bigint | null }>`
      SELECT SUM("amountMinor") AS total FROM "Refund"
       WHERE "tenantId" = ${tenantId}::uuid AND "orderId" = ${orderId}::uuid
         AND "status"::text IN ('succeeded', 'pending', 'requires_action')`.execute(tx)
  ).rows;
  return Number(row?.total ?? 0);
}

/**
 * Refunded goods are never also replaced (a refunded line counts like a replaced one). Refunds carry an amount, not
 * lines, so the check is on value: the goods replaced before, plus the money refunded, plus this replacement's goods,
 * may not exceed the value of the order's goods (Σ units × unit price). Null when it fits; else what is left.
 */
export function refundOverlap(
  items: readonly { sku: string; quantity: number }[],
  ordered: Map<string, { quantity: number; unitMinor: number }>,
  replaced: Map<string, number>,
  refundedMinor: number,
): { leftMinor: number; neededMinor: number } | null {
  const valueOf = (sku: string, units: number) => units * (ordered.get(sku)?.unitMinor ?? 0);
  const goods = [...ordered.entries()].reduce((n, [sku, l]) => n + valueOf(sku, l.quantity), 0);
  const replacedValue = [...replaced.entries()].reduce((n, [sku, units]) => n + valueOf(sku, units), 0);
  const neededMinor = items.reduce((n, i) => n + valueOf(i.sku, i.quantity), 0);
  const leftMinor = Math.max(0, goods - replacedValue - refundedMinor);
  return neededMinor > leftMinor ? { leftMinor, neededMinor } : null;
}

/** The proposal states in which a replacement counts as made: the shop did, is doing, or may have created it. */
const REPLACING = [
  proposalStatus.approved,
  proposalStatus.executing,
  proposalStatus.needsReconciliation,
  proposalStatus.succeeded,
];

/** Units of each SKU the order's replacements have replaced (or are replacing), but for `exceptId`. */
export async function replacedUnits(
  tx: Sql,
  tenantId: string,
  orderId: string,
  exceptId: string | null,
): Promise<Map<string, number>> {
  const { rows } = await sql<{ params: unknown }>`
    SELECT p."params" FROM "Proposal" p
     WHERE p."tenantId" = ${tenantId}::uuid AND p."orderId" = ${orderId}::uuid AND p."kind" = ${REPLACEMENT_ORDER_KIND}
       AND p."status"::text = ANY(${[...REPLACING]}::text[])
       AND (${exceptId}::uuid IS NULL OR p."id" <> ${exceptId}::uuid)`.execute(tx);
  const out = new Map<string, number>();
  for (const { params } of rows)
    for (const i of (params as ReplacementParams).items) out.set(i.sku, (out.get(i.sku) ?? 0) + i.quantity);
  return out;
}

/** Units per SKU as the source keeps them, in the order's SKU order (those with none left out). */
export function skuUnits(ordered: Map<string, unknown>, units: Map<string, number>): SkuUnits {
  return [...ordered.keys()]
    .filter((sku) => (units.get(sku) ?? 0) > 0)
    .map((sku) => ({ sku, quantity: units.get(sku)! }));
}

/** Units of each SKU still replaceable: ordered − replaced. */
const leftOf = (ordered: Map<string, { quantity: number }>, replaced: Map<string, number>, sku: string) =>
  Math.max(0, (ordered.get(sku)?.quantity ?? 0) - (replaced.get(sku) ?? 0));

/** The first requested line that asks for more of its SKU than is left to replace, or null. */
export function overReplaced(
  items: readonly { sku: string; quantity: number }[],
  ordered: Map<string, { quantity: number }>,
  replaced: Map<string, number>,
): { index: number; sku: string; left: number } | null {
  for (const [index, i] of items.entries()) {
    const left = leftOf(ordered, replaced, i.sku);
    if (i.quantity > left) return { index, sku: i.sku, left };
  }
  return null;
}

/** Two item lists compare equal when every hashed value is the same. */
export const sameItems = (a: readonly ReplacementItem[], b: readonly ReplacementItem[]) =>
  canonicalize(a) === canonicalize(b);

/** The address as a comparable string (key order fixed): equal addresses compare equal. */
export const addressKey = (a: PostalAddress | null) => (a === null ? "null" : canonicalize(a)!);

const problem = (path: string, expected: string, message: string) => ({ path, expected, message });

export async function prepareReplacementOrder(
  tx: Sql,
  input: PrepareReplacementOrderInput,
  ctx: ToolContext,
): Promise<HandlerResult> {
  if (!ctx.customerId) throw new Error("prepare_replacement_order needs a verified customer");
  const { tenantId } = ctx.caller;
  // The order row, locked first (the one lock order): concurrent prepares of this order take turns, and its
  // replacement proposals are read under that lock.
  const [order] = (
    await sql<LockedOrder>`
    SELECT o."id", o."number", o."status"::text AS "status", o."fulfilment"::text AS "fulfilment", o."currency",
           o."items", o."shippingAddress", c."name" AS "customerName"
      FROM "Order" o JOIN "Customer" c ON c."tenantId" = o."tenantId" AND c."id" = o."customerId"
     WHERE o."tenantId" = ${tenantId}::uuid AND o."number" = ${input.order_id} AND o."customerId" = ${ctx.customerId}
       FOR UPDATE OF o`.execute(tx)
  ).rows;
  if (!order) return { outcome: orderNotFound(input.order_id) };
  const audit = {
    order: order.number,
    reason: input.reason,
    items: input.items.map((i) => ({ sku: i.sku, quantity: i.quantity })),
  };
  const knownPersonal = [
    order.customerName,
    ...(order.shippingAddress ? [order.shippingAddress.name, order.shippingAddress.line1] : []),
  ];
  const refuse = (code: "permission_denied" | "invalid_arguments", message: string, details: object) => ({
    outcome: failure(code, message, { order_id: order.number, ...details }),
    audit,
    knownPersonal,
  });

  const refusal = orderRefusal(order, input.reason);
  if (refusal) {
    const why = {
      order_cancelled: "was cancelled",
      order_refunded: "was refunded in full",
      order_not_delivered:
        order.fulfilment === "shipped"
          ? "is still on its way (only goods lost in transit can be replaced before delivery)"
          : "has not shipped yet",
    }[refusal];
    return refuse(
      "permission_denied",
      `Order ${JSON.stringify(order.number)} ${why}, so no replacement can be prepared for it. Tell the customer.`,
      { reason: refusal },
    );
  }
  if (!order.shippingAddress) {
    return refuse(
      "permission_denied",
      `Order ${JSON.stringify(order.number)} has no shipping address on record to send a replacement to. Ask the customer to contact support.`,
      { reason: "no_shipping_address" },
    );
  }

  // Every requested SKU is on the order, once; the names come from the order, never from the model.
  const ordered = orderedUnits(order.items);
  const seen = new Set<string>();
  for (const [n, i] of input.items.entries()) {
    if (!ordered.has(i.sku))
      return refuse(
        "invalid_arguments",
        `Order ${JSON.stringify(order.number)} has no item with SKU ${JSON.stringify(i.sku)}. Only items of this order can be replaced: check the SKUs with lookup_order.`,
        {
          reason: "unknown_sku",
          problems: [problem(`$.items[${n}].sku`, "a SKU of this order", "not on the order")],
        },
      );
    if (seen.has(i.sku))
      return refuse("invalid_arguments", `SKU ${JSON.stringify(i.sku)} is named twice; name each SKU once.`, {
        reason: "duplicate_sku",
        problems: [problem(`$.items[${n}].sku`, "each SKU once", "named twice")],
      });
    seen.add(i.sku);
  }
  // What earlier replacements of this order took (not a pending one: the new request replaces it).
  const replaced = await replacedUnits(tx, tenantId, order.id, null);
  if ([...ordered.keys()].every((sku) => leftOf(ordered, replaced, sku) === 0)) {
    return refuse(
      "permission_denied",
      `Every item of order ${JSON.stringify(order.number)} was already replaced; nothing is left to replace. Tell the customer; a person can help through a support ticket.`,
      { reason: "nothing_left_to_replace" },
    );
  }
  const over = overReplaced(input.items, ordered, replaced);
  if (over) {
    const item = ordered.get(over.sku)!;
    return refuse(
      "invalid_arguments",
      `Only ${over.left} unit(s) of ${JSON.stringify(over.sku)} can still be replaced on order ${JSON.stringify(order.number)} (ordered ${item.quantity}, already replaced ${replaced.get(over.sku) ?? 0}). Ask the customer how many arrived damaged or missing.`,
      {
        reason: "quantity_too_high",
        sku: over.sku,
        ordered: item.quantity,
        already_replaced: replaced.get(over.sku) ?? 0,
        left: over.left,
        problems: [problem(`$.items[${over.index}].quantity`, `at most ${over.left}`, "more than is left to replace")],
      },
    );
  }

  // Goods the customer was refunded for are not sent again as well (a refunded line counts like a replaced one).
  const refundedMinor = await refundedMinorOf(tx, tenantId, order.id);
  const overlap = refundOverlap(input.items, ordered, replaced, refundedMinor);
  if (overlap) {
    return refuse(
      "permission_denied",
      `Order ${JSON.stringify(order.number)} was already refunded in part (${refundedMinor} in minor units); the goods asked for are worth more than what is left neither refunded nor replaced (${overlap.leftMinor}), so they cannot also be replaced. Tell the customer; a person can help through a support ticket.`,
      {
        reason: "already_refunded",
        refunded_minor: refundedMinor,
        left_minor: overlap.leftMinor,
        requested_minor: overlap.neededMinor,
      },
    );
  }

  // Carried out by the shop's action endpoint: without one, nothing could ever create it — say so now.
  if (!(await hasActionEndpoint(tx, tenantId))) {
    return refuse(
      "permission_denied",
      "This shop has not connected replacement orders to the assistant yet; ask the customer to contact support.",
      { reason: "action_endpoint_not_configured" },
    );
  }

  const wanted = new Map(input.items.map((i) => [i.sku, i.quantity]));
  const params: ReplacementParams = {
    order: { number: order.number, customerName: order.customerName },
    // In the order's own line order, so the same request always hashes the same.
    items: [...ordered.entries()]
      .filter(([sku]) => wanted.has(sku))
      .map(([sku, line]) => ({ sku, name: line.name, quantity: wanted.get(sku)! })),
    price: { minor: 0, currency: order.currency.trim() },
    shippingAddress: order.shippingAddress,
    reason: input.reason,
  };
  const source: ReplacementSource = {
    orderStatus: order.status,
    fulfilment: order.fulfilment,
    ordered: [...ordered.entries()].map(([sku, line]) => ({ sku, quantity: line.quantity })),
    replacedBefore: skuUnits(ordered, replaced),
    refundedMinor,
  };

  const subject = { type: "order", ref: order.id };
  const now = new Date();
  const pending = await pendingProposalOf(tx, tenantId, REPLACEMENT_ORDER_KIND, subject);
  if (pending && pending.expiresAt > now) {
    const stored = pending.params as unknown as ReplacementParams;
    const [was] = (
      await sql<{ source: unknown }>`SELECT "source" FROM "Proposal" WHERE "id" = ${pending.id}::uuid`.execute(tx)
    ).rows;
    // Asked again while it awaits review: the same proposal, as long as it asks for the same thing and the order is
    // still what it was derived from (else it would only be invalidated at approval: the new one replaces it).
    if (canonicalize(stored) === canonicalize(params) && canonicalize(was?.source ?? null) === canonicalize(source))
      return {
        outcome: approvalRequired(pending, stored, now),
        proposal: { id: pending.id, hash: pending.hash },
        audit: { ...audit, reused: true },
        knownPersonal,
      };
  }
  // The tenant's cool-down after a rejection (as the cancellation): a replacement of this order a reviewer rejected is
  // answered `rejected` with the reviewer's reason until it ends, whatever items are asked for now.
  const policy = await readKindPolicy(tx, tenantId);
  const [rejected] = await rejectionsInCooldown(
    tx,
    tenantId,
    REPLACEMENT_ORDER_KIND,
    subject,
    policy.rejectionCooldownMinutes,
    now,
  );
  if (rejected) {
    return {
      ...cooldownRefusal(
        rejected,
        policy.rejectionCooldownMinutes,
        `a replacement of order ${JSON.stringify(order.number)}`,
        { order_id: order.number },
      ),
      audit: { ...audit, cooldown: true },
      knownPersonal,
    };
  }
  // Expired but not yet swept, or the customer asked for other items: the new proposal replaces it.
  if (pending) await replacePending(tx, pending.id, "replaced_by_new_request");

  const proposal = await insertKindProposal(tx, {
    tenantId,
    kind: REPLACEMENT_ORDER_KIND,
    tool: "prepare_replacement_order",
    subject,
    params,
    source,
    reason: input.reason,
    orderId: order.id,
    customerId: ctx.customerId,
    orderNumber: order.number,
    requester: { agentKeyId: ctx.caller.keyId },
    channelId: ctx.caller.channelId,
    endUserId: ctx.customerId,
    traceId: ctx.traceId,
    // Goods leave the warehouse for free: always a person's look.
    requiredApprovals: 1,
    policy,
    supersedesId: pending?.id ?? null,
    now,
  });
  return {
    outcome: approvalRequired(proposal, params, now),
    proposal: { id: proposal.id, hash: proposal.hash },
    audit: { ...audit, reused: false, supersedes: pending?.id ?? null },
    knownPersonal,
  };
}

/** The replacement as prepare_replacement_order's answer and get_action_status name it (hashed params only). */
export function agentAction(params: ReplacementParams) {
  return {
    order_id: params.order.number,
    items: params.items.map((i) => ({ sku: i.sku, name: i.name, quantity: i.quantity })),
    price: { minor: params.price.minor, currency: params.price.currency },
    shipping_address: params.shippingAddress,
    reason: params.reason,
  };
}

/** The `approval_required` answer: the exact replacement a person will be asked to approve. */
function approvalRequired(
  p: Pick<KindProposal, "id" | "hash" | "expiresAt" | "requiredApprovals">,
  params: ReplacementParams,
  now: Date,
): ToolOutcome {
  return kindApprovalRequired(
    p,
    REPLACEMENT_ORDER_KIND,
    agentAction(params),
    `A person must approve this replacement before the shop sends anything. Tell the customer it awaits review, which items will be sent again at no charge and that they go to the order's shipping address. To learn the decision, call get_action_status with wait_seconds: ${MAX_WAIT_SECONDS} (it answers as soon as a reviewer decides). Do not call prepare_replacement_order again for this order unless the customer changes the items.`,
    now,
  );
}
