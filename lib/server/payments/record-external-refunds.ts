import "server-only";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import type { Tx } from "@/lib/server/db/client";
import { sql, sqlOf } from "@/lib/server/db/sql";
import {
  invalidateUnfitProposals,
  refreshOrderStatus,
  type OrderChanger,
} from "@/lib/server/proposals/invalidate-unfit-proposals";
import type { ProviderRefund } from "./payment-provider";
import { upsertExternalRefund } from "./upsert-external-refund";
import { lockOrder } from "@/lib/server/proposals/locks";
import { isUuid } from "@/lib/domain/validation";
import { log } from "@/lib/server/log";
import { metrics } from "@/lib/server/telemetry/metrics";
import { DEFAULT_PROVIDER_ACCOUNT } from "./provider-account";

/**
 * Which tenants a verified webhook may speak for: the one whose own secret verified it (its per-tenant endpoint), or
 * every tenant without an own connection (the process-wide endpoint, verified with the process-wide secret) — and
 * there only their payments in the installation's account (`providerAccount: "default"`).
 */
export type WebhookTenants =
  { tenantId: string } | { tenantId: { notIn: string[] }; providerAccount?: typeof DEFAULT_PROVIDER_ACCOUNT };

const PROVIDER: Omit<OrderChanger, "tenantId"> = {
  actorId: "payment_provider",
  authMethod: "provider_webhook",
  source: "provider_webhook",
};
const TERMINAL = new Set(["succeeded", "failed", "canceled"]);

/**
 * The payment an event is about: by (account of the endpoint that verified it, reference), among payments at the
 * provider (`stripe`; a `manual` reference is the shop's own number, whatever it looks like). One account holds a
 * reference once (the partial unique index), so another tenant's rows cannot make an event ambiguous. An event
 * that finds no payment, or (rows from before the index) more than one, is never dropped silently: it is logged
 * and counted (`approvalgw_provider_webhook_events_total{result="unplaced"|"ambiguous"}`).
 */
async function paymentOf(tx: Tx, tenants: WebhookTenants, paymentIntent: string, eventType: string) {
  const found = await tx.payment.findMany({
    where: { ...tenants, provider: "stripe", providerPaymentRef: paymentIntent },
    select: {
      id: true,
      tenantId: true,
      currency: true,
      order: { select: { id: true, number: true, capturedMinor: true, status: true } },
    },
    take: 2,
  });
  if (found.length === 1) return found[0]!;
  const result = found.length === 0 ? "unplaced" : "ambiguous";
  metrics().providerWebhookEvents.inc({ result });
  const scope = typeof tenants.tenantId === "string" ? "tenant" : "installation";
  log.warn({ paymentIntent, eventType, scope, result }, "provider webhook: the event's payment cannot be placed");
  return null;
}

/**
 * A refund the provider reports on a payment we know, made outside this product (the provider's dashboard, another
 * integration): it enters the ledger with origin `external`, idempotently on the refund id (a later event updates its
 * status; a settled status never goes back to pending), the order's status follows, and open proposals of the order
 * that no longer fit are invalidated — all in the webhook's transaction, with an audit event
 * (`payments:external_refund`). Refunds this product made (an execution's, or any carrying one of our proposal ids)
 * are not touched here. Returns whether the ledger changed.
 */
export async function recordExternalRefund(
  tx: Tx,
  tenants: WebhookTenants,
  refund: ProviderRefund,
  ctx: { eventType: string; traceId: string; now: Date },
) {
  if (!refund.paymentIntent) return false;
  const payment = await paymentOf(tx, tenants, refund.paymentIntent, ctx.eventType);
  if (!payment) return false;
  const { tenantId, order } = payment;
  const proposalId = refund.metadata.proposalId;
  if (proposalId && isUuid(proposalId) && (await tx.proposal.count({ where: { id: proposalId, tenantId } })) > 0)
    return false;
  // The order row first (lib/server/proposals/locks.ts): its refunds, status and proposals change below.
  await lockOrder(sqlOf(tx), tenantId, order.id);
  // Stripe delivers refund.created and charge.refunded about one refund at the same time: without this lock both
  // read "no row yet" and both record (and audit) it. Held to the end of the webhook's transaction.
  await sql`SELECT 1 FROM pg_advisory_xact_lock(hashtext('external-refund'), hashtext(${`${tenantId}:${refund.id}`}))`.execute(
    sqlOf(tx),
  );
  const existing = await tx.refund.findUnique({
    where: { tenantId_providerRefundId: { tenantId, providerRefundId: refund.id } },
    select: { origin: true, status: true, amountMinor: true },
  });
  if (existing?.origin === "local") return false;
  if (existing && TERMINAL.has(existing.status) && !TERMINAL.has(refund.status)) return false; // a late, older event
  if (existing && existing.status === refund.status && existing.amountMinor === refund.amountMinor) return false;
  const data = { amountMinor: refund.amountMinor, currency: refund.currency, status: refund.status };
  const { id: providerRefundId, createdAt } = refund;
  await upsertExternalRefund(
    tx,
    { tenantId, orderId: order.id, paymentId: payment.id, providerRefundId, createdAt },
    data,
  );
  await refreshOrderStatus(tx, {
    id: order.id,
    capturedMinor: order.capturedMinor,
    cancelled: order.status === "cancelled",
  });
  const invalidated = await invalidateUnfitProposals(tx, { tenantId, ...PROVIDER }, order.id, ctx.traceId, ctx.now);
  await recordAuditEvent(sqlOf(tx), {
    tenantId,
    traceId: ctx.traceId,
    actor: { type: "system", id: PROVIDER.actorId, authMethod: PROVIDER.authMethod },
    action: "payments:external_refund",
    outcome: existing ? "updated" : "created",
    data: {
      order: order.number,
      refundRef: refund.id,
      amountMinor: refund.amountMinor,
      currency: refund.currency,
      status: refund.status,
      eventType: ctx.eventType,
      invalidatedProposals: invalidated,
    },
    redaction: {
      clear: ["order", "refundRef", "amountMinor", "currency", "status", "eventType", "invalidatedProposals"],
    },
  });
  return true;
}

/**
 * A dispute opened on a payment we know: money the bank may take back, so no proposal of that order may go to review
 * as if nothing happened. Pending proposals of the order are invalidated (`payment_disputed`); approved ones are left
 * to the worker's live re-read. Audited as `payments:dispute`.
 */
export async function recordDispute(
  tx: Tx,
  tenants: WebhookTenants,
  paymentIntent: string,
  dispute: { id: string; amountMinor: number; currency: string; reason: string | null },
  ctx: { traceId: string; now: Date },
) {
  const payment = await paymentOf(tx, tenants, paymentIntent, "charge.dispute.created");
  if (!payment) return false;
  const invalidated = await invalidateUnfitProposals(
    tx,
    { tenantId: payment.tenantId, ...PROVIDER },
    payment.order.id,
    ctx.traceId,
    ctx.now,
    "payment_disputed",
  );
  await recordAuditEvent(sqlOf(tx), {
    tenantId: payment.tenantId,
    traceId: ctx.traceId,
    actor: { type: "system", id: PROVIDER.actorId, authMethod: PROVIDER.authMethod },
    action: "payments:dispute",
    outcome: "recorded",
    data: {
      order: payment.order.number,
      disputeRef: dispute.id,
      amountMinor: dispute.amountMinor,
      currency: dispute.currency,
      disputeReason: dispute.reason,
      invalidatedProposals: invalidated,
    },
    redaction: { clear: ["order", "disputeRef", "amountMinor", "currency", "disputeReason", "invalidatedProposals"] },
  });
  return true;
}
