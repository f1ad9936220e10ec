import "server-only";
// prepare_address_change (the kind's derive, docs/action-kinds.md): under the order's row lock, from the order as the
// shop last reported it — the order must be the signed-in customer's, not cancelled and not shipped; the new address
// is normalised (ISO 3166-1 country, postal code checked for it); the address on record now is the `before`. The
// hashed params are what the reviewer reads: the order's number and customer, before → after and which fields change.
// Policy: one reviewer, two when the country changes (or when there is no address on record to compare with).
import canonicalize from "canonicalize";
import { failure, type ToolOutcome } from "@/lib/domain/agent-protocol";
import { changedAddressFields, normalisePostalAddress, type PostalAddress } from "@/lib/domain/postal-address";
import type { HandlerResult, ToolContext } from "@/lib/server/agent/tool-context";
import { auditFingerprint } from "@/lib/server/audit/fingerprint";
import { sql, type Sql } from "@/lib/server/db/sql";
import { orderNotFound } from "@/lib/server/orders/order-not-found";
import { insertKindProposal, readKindPolicy, type KindProposal } from "@/lib/server/proposals/insert-kind-proposal";
import {
  cooldownRefusal,
  hasActionEndpoint,
  pendingProposalOf,
  rejectionsInCooldown,
  replacePending,
} from "@/lib/server/proposals/kind-prepare";
import { kindApprovalRequired } from "@/lib/server/proposals/agent-answer";
import { ADDRESS_CHANGE_KIND, type PrepareAddressChangeInput } from "./tools";
import { MAX_WAIT_SECONDS } from "@/lib/schemas/agent-inputs";

/** The hashed params of an address change: exactly what a reviewer approves. */
export type AddressChangeParams = {
  order: { number: string; customerName: string };
  before: PostalAddress | null;
  after: PostalAddress;
  changed: (keyof PostalAddress)[];
};

type LockedOrder = {
  id: string;
  number: string;
  status: string;
  fulfilment: string;
  shippingAddress: PostalAddress | null;
  customerName: string;
};

/** The order's address as a comparable string (key order fixed): equal addresses compare equal. */
export const addressKey = (a: PostalAddress | null) => (a === null ? "null" : canonicalize(a)!);

/** A keyed fingerprint of an address for the audit trail (never the address itself). */
export const addressFingerprint = (a: PostalAddress | null) => (a === null ? null : auditFingerprint(addressKey(a)));

/** Why the order cannot have its address changed now, or null. */
export function orderRefusal(order: { status: string; fulfilment: string }): string | null {
  if (order.status === "cancelled") return "order_cancelled";
  if (order.fulfilment !== "unfulfilled") return `order_${order.fulfilment}`;
  return null;
}

export async function prepareAddressChange(
  tx: Sql,
  input: PrepareAddressChangeInput,
  ctx: ToolContext,
): Promise<HandlerResult> {
  if (!ctx.customerId) throw new Error("prepare_address_change needs a verified customer");
  const { tenantId } = ctx.caller;
  const normalised = normalisePostalAddress(input.new_address);
  if (!normalised.ok) {
    return {
      outcome: failure("invalid_arguments", "The new address is not valid; ask the customer to correct it.", {
        problems: normalised.problems.map((p) => ({
          path: `$.new_address.${p.path}`,
          expected: "a valid address field",
          message: p.message,
        })),
      }),
    };
  }
  const after = normalised.address;
  const [order] = (
    await sql<LockedOrder>`
    SELECT o."id", o."number", o."status"::text AS "status", o."fulfilment"::text AS "fulfilment", o."shippingAddress",
           c."name" AS "customerName"
      FROM "Order" o JOIN "Customer" c ON c."tenantId" = o."tenantId" AND c."id" = o."customerId"
     WHERE o."tenantId" = ${tenantId}::uuid AND o."number" = ${input.order_id} AND o."customerId" = ${ctx.customerId}
       FOR UPDATE OF o`.execute(tx)
  ).rows;
  if (!order) return { outcome: orderNotFound(input.order_id) };
  // Fingerprints made here with the audit key: the writer stores them as they are (madeFingerprints).
  const audit = { order: order.number, after: addressFingerprint(after) };

  const refusal = orderRefusal(order);
  if (refusal) {
    const why = refusal === "order_cancelled" ? "was cancelled" : `has already ${refusal.slice("order_".length)}`;
    return {
      outcome: failure(
        "permission_denied",
        `Order ${JSON.stringify(order.number)} ${why}, so its shipping address can no longer be changed. Tell the customer.`,
        { order_id: order.number, reason: refusal },
      ),
      audit,
      madeFingerprints: [audit.after],
    };
  }
  const before = order.shippingAddress;
  if (addressKey(before) === addressKey(after)) {
    return {
      outcome: failure(
        "invalid_arguments",
        `That is already the shipping address of order ${JSON.stringify(order.number)}; nothing to change.`,
        { order_id: order.number, reason: "address_unchanged", problems: [] },
      ),
      audit,
      madeFingerprints: [audit.after],
    };
  }
  // Executed on the shop's action endpoint: without one, nothing could ever carry it out — say so now.
  if (!(await hasActionEndpoint(tx, tenantId))) {
    return {
      outcome: failure(
        "permission_denied",
        "This shop has not connected address changes to the assistant yet; ask the customer to contact support.",
        { order_id: order.number, reason: "action_endpoint_not_configured" },
      ),
      audit,
      madeFingerprints: [audit.after],
    };
  }

  const subject = { type: "order", ref: order.id };
  const now = new Date();
  const pending = await pendingProposalOf(tx, tenantId, ADDRESS_CHANGE_KIND, subject);
  if (pending && pending.expiresAt > now) {
    const params = pending.params as unknown as AddressChangeParams;
    // The same change asked again: the same proposal. Another address: the customer corrected it; the new one replaces it.
    if (addressKey(params.after) === addressKey(after))
      return {
        outcome: approvalRequired(pending, params, now),
        proposal: { id: pending.id, hash: pending.hash },
        audit: { ...audit, reused: true },
        madeFingerprints: [audit.after],
      };
  }
  // The tenant's cool-down after a rejection: the same address a reviewer rejected for this order is answered
  // `rejected` with the reviewer's reason until it ends, so an agent cannot simply ask again until someone says yes.
  // Another address (the customer corrected a typo) is a new request.
  const policy = await readKindPolicy(tx, tenantId);
  const rejectedRows = await rejectionsInCooldown(
    tx,
    tenantId,
    ADDRESS_CHANGE_KIND,
    subject,
    policy.rejectionCooldownMinutes,
    now,
  );
  // Compared without case: a re-capitalised address is still the one the reviewer rejected.
  const looseKey = (a: PostalAddress) => addressKey(a).toLowerCase();
  const rejected = rejectedRows.find((r) => looseKey((r.params as AddressChangeParams).after) === looseKey(after));
  if (rejected) {
    return {
      ...cooldownRefusal(
        rejected,
        policy.rejectionCooldownMinutes,
        `this address change for order ${JSON.stringify(order.number)}`,
        { order_id: order.number },
      ),
      audit: { ...audit, cooldown: true },
      madeFingerprints: [audit.after],
    };
  }
  if (pending) await replacePending(tx, pending.id, "replaced_by_new_address");

  const params: AddressChangeParams = {
    order: { number: order.number, customerName: order.customerName },
    before,
    after,
    changed: changedAddressFields(before, after),
  };
  // A parcel sent to another country is the costly mistake (customs, fraud): two people look at it. So is a change
  // with nothing on record to compare it with.
  const requiredApprovals = before === null || before.country !== after.country ? 2 : 1;
  const proposal = await insertKindProposal(tx, {
    tenantId,
    kind: ADDRESS_CHANGE_KIND,
    tool: "prepare_address_change",
    subject,
    params,
    // What the change was derived from: the order as the shop last reported it.
    source: { orderStatus: order.status, fulfilment: order.fulfilment },
    reason: "customer_request",
    orderId: order.id,
    customerId: ctx.customerId,
    orderNumber: order.number,
    requester: { agentKeyId: ctx.caller.keyId },
    channelId: ctx.caller.channelId,
    endUserId: ctx.customerId,
    traceId: ctx.traceId,
    requiredApprovals,
    policy,
    supersedesId: pending?.id ?? null,
    now,
  });
  const beforeFp = addressFingerprint(before);
  return {
    outcome: approvalRequired(proposal, params, now),
    proposal: { id: proposal.id, hash: proposal.hash },
    audit: { ...audit, before: beforeFp, reused: false, supersedes: pending?.id ?? null },
    madeFingerprints: [audit.after, beforeFp],
    knownPersonal: [order.customerName, after.name, ...(before ? [before.name] : [])],
  };
}

/** The change as prepare_address_change's answer and get_action_status name it (hashed params only). */
export function agentAction(params: AddressChangeParams) {
  return { order_id: params.order.number, before: params.before, after: params.after, changed: params.changed };
}

/** The `approval_required` answer: the exact change a person will be asked to approve. */
function approvalRequired(
  p: Pick<KindProposal, "id" | "hash" | "expiresAt" | "requiredApprovals">,
  params: AddressChangeParams,
  now: Date,
): ToolOutcome {
  return kindApprovalRequired(
    p,
    ADDRESS_CHANGE_KIND,
    agentAction(params),
    `A person must approve this address change before the shop changes anything. Tell the customer it awaits review and read the new address back to them. To learn the decision, call get_action_status with wait_seconds: ${MAX_WAIT_SECONDS} (it answers as soon as a reviewer decides). Do not call prepare_address_change again unless the customer gives another address.`,
    now,
  );
}
