import "server-only";
// What the core asks of the replacement-order kind about one of its proposals (../kind.server.ts, KindBehaviour).
// revalidate (at approval and before execution, under the order's lock): the order as it is now against what the
// replacement was derived from — cancelled, refunded or no longer delivered; lost goods delivered after all; its
// items changed (`order_changed`); its shipping address changed (`address_changed`); or another replacement of
// the same units approved meanwhile (`already_replaced`) → invalidated.
// executor: the shop's action endpoint, key `create_order-<proposal id>`, subject = the original order as the shop
// numbers it, params = {items, price, shippingAddress, reason}; the shop answers the new order's number as its
// `reference`, which settle writes into the trace (`execution:order_created`) in the transaction recording the
// success. Our copy learns the new order itself from the shop's Orders API, like any order.
import { formatMinor } from "@/lib/domain/format-money";
import type { PostalAddress } from "@/lib/domain/postal-address";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import { sqlOf } from "@/lib/server/db/sql";
import { actionEndpointExecutor, type ExecutedProposal } from "@/lib/server/executions/action-endpoint-executor";
import type { KindBehaviour, KindReview } from "../kind.server";
import {
  addressKey,
  agentAction,
  orderRefusal,
  orderedUnits,
  overReplaced,
  refundedMinorOf,
  refundOverlap,
  replacedUnits,
  sameItems,
  type ReplacementParams,
  type ReplacementSource,
} from "./prepare";

const paramsOf = (p: { params: unknown }) => p.params as ReplacementParams;

async function revalidate(...[tx, p]: Parameters<KindBehaviour["revalidate"]>): Promise<string | null> {
  // The order row, locked first by lockProposal (the one lock order), as the shop last reported it.
  if (!p.order) return "order_not_found";
  const params = paramsOf(p);
  const source = p.source as ReplacementSource | null;
  if (!source) return "order_changed";
  const refusal = orderRefusal(p.order, params.reason);
  if (refusal) return refusal;
  // Goods reported lost have been delivered after all (shipped → delivered): nothing to replace.
  if (p.order.fulfilment !== source.fulfilment)
    return p.order.fulfilment === "delivered" ? "order_delivered" : "order_changed";
  let ordered;
  try {
    ordered = orderedUnits(p.order.items);
  } catch {
    return "order_changed"; // items no longer in a shape the hash can hold
  }
  // The order's lines, and the names the reviewer read, are still what the replacement was derived from.
  const now = [...ordered.entries()].map(([sku, line]) => ({ sku, quantity: line.quantity }));
  if (JSON.stringify(now) !== JSON.stringify(source.ordered)) return "order_changed";
  const current = params.items.map((i) => ({ sku: i.sku, name: ordered.get(i.sku)?.name ?? "", quantity: i.quantity }));
  if (!sameItems(current, params.items)) return "order_changed";
  if (addressKey(p.order.shippingAddress as PostalAddress | null) !== addressKey(params.shippingAddress))
    return "address_changed";
  // Another replacement of this order approved (or carried out) since: this one must still fit in what is left.
  const replaced = await replacedUnits(sqlOf(tx), p.tenantId, p.order.id, p.id);
  if (overReplaced(params.items, ordered, replaced)) return "already_replaced";
  // Refunded since (or before): refunded goods are not also replaced.
  const refunded = await refundedMinorOf(sqlOf(tx), p.tenantId, p.order.id);
  return refundOverlap(params.items, ordered, replaced, refunded) ? "already_refunded" : null;
}

/** The address on one line, as the queue and the confirmation sentence show it. */
export function addressLine(a: PostalAddress): string {
  return [a.name, a.line1, a.line2, `${a.postalCode} ${a.city}`.trim(), a.region, a.country]
    .filter((part): part is string => !!part)
    .join(", ");
}

const itemsLine = (params: ReplacementParams) =>
  params.items.map((i) => `${i.quantity} × ${i.name} (${i.sku})`).join("; ");

/** The original order, the items sent again, the price (nothing) and where they go — from the hashed params only. */
function review(raw: unknown): KindReview {
  const params = raw as ReplacementParams;
  const items = itemsLine(params);
  const address = addressLine(params.shippingAddress);
  return {
    fields: [
      { key: "order", before: null, after: params.order.number, changed: false },
      { key: "customer", before: null, after: params.order.customerName, changed: false },
      { key: "items", before: null, after: items, changed: true },
      {
        key: "price",
        before: null,
        after: formatMinor(params.price.minor, params.price.currency, "en"),
        changed: false,
      },
      { key: "shippingAddress", before: null, after: address, changed: false },
      { key: "reason", before: null, after: params.reason, changed: false },
    ],
    sentence: { order: params.order.number, items, address },
    summary: `${params.order.number}: ${items}`,
  };
}

const WORKER = { type: "system" as const, id: "worker", authMethod: "job" };

export const replacementOrderBehaviour: KindBehaviour = {
  // Goods leave at no charge: always a reviewer (tenant policy may ask the customer too).
  confirmation: { floor: "reviewers" },
  revalidate,
  review,
  agentAction: (p) => agentAction(paramsOf(p)),
  executor: actionEndpointExecutor({
    revalidate,
    request: (p: ExecutedProposal) => {
      const params = paramsOf(p);
      return {
        subject: { type: "order", ref: params.order.number },
        params: {
          items: params.items,
          price: params.price,
          shippingAddress: params.shippingAddress,
          reason: params.reason,
        },
      };
    },
    // The shop created the replacement: its number (the shop's `reference`, kept as Execution.actionReference by the
    // executor) lands in the trace beside the original's, in the transaction recording the success.
    settle: async (tx, p) => {
      const execution = await tx.execution.findUniqueOrThrow({
        where: { proposalId: p.id },
        select: { id: true, actionReference: true },
      });
      const params = paramsOf(p);
      await recordAuditEvent(sqlOf(tx), {
        tenantId: p.tenantId,
        traceId: p.traceId,
        actor: WORKER,
        action: "execution:order_created",
        outcome: "ok",
        proposal: { id: p.id, hash: p.hash },
        data: {
          executionId: execution.id,
          originalOrder: params.order.number,
          newOrder: execution.actionReference,
          units: params.items.reduce((n, i) => n + i.quantity, 0),
        },
        redaction: { clear: ["executionId", "originalOrder", "newOrder", "units"] },
      });
    },
  }),
};
