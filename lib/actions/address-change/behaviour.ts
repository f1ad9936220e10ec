import "server-only";
// What the core asks of the address-change kind about one of its proposals (../kind.server.ts, KindBehaviour).
// revalidate: the order as it is now against what the change was derived from — cancelled or shipped since, or its
// address changed elsewhere (the `before` the reviewer saw is no longer the address on record) → invalidated.
// executor: the shop's action endpoint, subject = the order as the shop numbers it, params = {before, after}; when the
// shop says it is done, our copy of the order takes the new address (in the transaction that records the success).
import type { PostalAddress } from "@/lib/domain/postal-address";
import { actionEndpointExecutor, type ExecutedProposal } from "@/lib/server/executions/action-endpoint-executor";
import type { KindBehaviour, KindReview } from "../kind.server";
import { addressKey, agentAction, orderRefusal, type AddressChangeParams } from "./prepare";

const paramsOf = (p: { params: unknown }) => p.params as AddressChangeParams;

/** Whether the change leaves the country, or has no address on record to compare with (then a reviewer looks too). */
const crossesBorder = (p: AddressChangeParams) => p.before === null || p.before.country !== p.after.country;

async function revalidate(...[, p]: Parameters<KindBehaviour["revalidate"]>): Promise<string | null> {
  // The order row, locked first by lockProposal (the one lock order), as the shop last reported it.
  if (!p.order) return "order_not_found";
  const refusal = orderRefusal({ status: p.order.status, fulfilment: p.order.fulfilment });
  if (refusal) return refusal;
  const now = p.order.shippingAddress as PostalAddress | null;
  return addressKey(now) === addressKey(paramsOf(p).before) ? null : "address_changed";
}

const FIELDS: (keyof PostalAddress)[] = ["name", "line1", "line2", "city", "postalCode", "region", "country"];

/** The address on one line, as the queue and the confirmation sentence show it. */
export function addressLine(a: PostalAddress): string {
  return [a.name, a.line1, a.line2, `${a.postalCode} ${a.city}`.trim(), a.region, a.country]
    .filter((part): part is string => !!part)
    .join(", ");
}

/** Before → after, field by field, from the hashed params only. */
function review(raw: unknown): KindReview {
  const params = raw as AddressChangeParams;
  return {
    fields: [
      { key: "order", before: null, after: params.order.number, changed: false },
      { key: "customer", before: null, after: params.order.customerName, changed: false },
      ...FIELDS.map((key) => ({
        key,
        before: params.before ? (params.before[key] ?? null) : null,
        after: params.after[key] ?? null,
        changed: params.changed.includes(key),
      })),
    ],
    sentence: { order: params.order.number, address: addressLine(params.after) },
    summary: addressLine(params.after),
  };
}

export const addressChangeBehaviour: KindBehaviour = {
  // The customer confirms their own new address; a reviewer too when it leaves the country (or nothing to compare).
  confirmation: { floor: "customer", reviewersToo: (raw) => crossesBorder(raw as AddressChangeParams) },
  revalidate,
  review,
  agentAction: (p) => agentAction(paramsOf(p)),
  executor: actionEndpointExecutor({
    revalidate,
    request: (p: ExecutedProposal) => {
      const params = paramsOf(p);
      return {
        subject: { type: "order", ref: params.order.number },
        params: { before: params.before, after: params.after },
      };
    },
    settle: async (tx, p) => {
      if (!p.orderId) throw new Error("an address change concerns an order");
      await tx.order.update({ where: { id: p.orderId }, data: { shippingAddress: paramsOf(p).after } });
    },
  }),
};
