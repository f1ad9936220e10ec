import "server-only";
import { sql, sqlOf } from "@/lib/server/db/sql";
import { db, type Tx } from "@/lib/server/db/client";
import {
  getPaymentProvider,
  paymentProviderFor,
  ProviderConnectionUnusable,
} from "@/lib/server/payments/get-payment-provider";
import type { PaymentProvider, ProviderRefund } from "@/lib/server/payments/payment-provider";
import {
  recordDispute,
  recordExternalRefund,
  type WebhookTenants,
} from "@/lib/server/payments/record-external-refunds";
import { log } from "@/lib/server/log";
import { DEFAULT_PROVIDER_ACCOUNT } from "@/lib/server/payments/provider-account";
import { settleWithRefund } from "./apply-provider-answer";
import { transaction } from "@/lib/server/db/transaction";

export type WebhookResult = { status: number; body: { received: boolean; duplicate?: boolean; error?: string } };

/**
 * Seconds a signed webhook timestamp may differ from our clock, in either direction. Stripe's own check
 * only bounds the past (an old timestamp); a timestamp in the future is refused here too, so a captured
 * request cannot be "pre-dated" to extend its replay window.
 */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** The `t=` of a Stripe-Signature header (already verified as part of the signed payload). */
function signedTimestamp(header: string): number | null {
  const m = header.match(/(?:^|,)\s*t=(\d{1,12})(?:,|$)/);
  return m ? Number(m[1]) : null;
}

/**
 * The process-wide provider webhook (`/api/payments/webhook`), verified with PAYMENT_PROVIDER_WEBHOOK_SECRET: it
 * speaks for every tenant without an own provider connection (they share that account).
 */
export async function settleFromWebhook(
  rawBody: string,
  signature: string | null,
  now: Date = new Date(),
): Promise<WebhookResult> {
  const own = await db().providerConnection.findMany({ select: { tenantId: true } });
  return handleProviderWebhook(
    getPaymentProvider(),
    { tenantId: { notIn: own.map((o) => o.tenantId) }, providerAccount: DEFAULT_PROVIDER_ACCOUNT },
    rawBody,
    signature,
    now,
  );
}

/**
 * A tenant's own provider webhook (`/api/payments/webhook/{tenantSlug}`), verified with that tenant's own webhook
 * secret (docs/systems-of-record.md "Refunds made elsewhere"); it speaks for that tenant only. An unknown slug and a
 * tenant without an own connection get the same 404 (no secret to verify with; nothing said about which exists).
 * A stored connection that does not open answers 500, so the provider delivers again once it is fixed.
 */
export async function settleFromTenantWebhook(
  tenantSlug: string,
  rawBody: string,
  signature: string | null,
  now: Date = new Date(),
): Promise<WebhookResult> {
  const tenant = await db().tenant.findUnique({
    where: { slug: tenantSlug },
    select: { id: true, providerConnection: { select: { tenantId: true } } },
  });
  if (!tenant?.providerConnection)
    return { status: 404, body: { received: false, error: "no provider connection for this endpoint" } };
  let provider;
  try {
    provider = await paymentProviderFor(tenant.id);
  } catch (error) {
    if (!(error instanceof ProviderConnectionUnusable)) throw error;
    log.error({ tenantId: tenant.id, err: error.message }, "tenant provider webhook: the connection does not open");
    return { status: 500, body: { received: false, error: "internal error" } };
  }
  return handleProviderWebhook(provider, { tenantId: tenant.id }, rawBody, signature, now);
}

/**
 * A provider webhook (signature verified over the raw body with the secret of the account it came from). Refused
 * (400, nothing changes): a bad signature, a timestamp outside the tolerance in either direction. An event id seen
 * before is acknowledged (200, duplicate) and not applied again: the id is recorded in the same transaction as what
 * the event changes, so two concurrent deliveries of one event apply it once. Then, for the tenants it speaks for:
 * - a refund of one of our executions settles it (a pending refund that succeeded or failed later);
 * - any other refund on a payment we know — made in the provider's dashboard, by another integration — enters the
 *   ledger with origin external, and open proposals of the order that no longer fit are invalidated
 *   (lib/server/payments/record-external-refunds.ts). `charge.refunded` carries no refund list (Stripe API
 *   2022-11-15+), so the payment's refunds are read from the provider first (one round trip; no answer → 503 and
 *   nothing recorded, so the provider delivers again);
 * - `charge.dispute.created` on a payment we know invalidates the order's pending proposals.
 * Events about other things, or payments we do not know, are acknowledged and ignored.
 */
async function handleProviderWebhook(
  provider: PaymentProvider,
  tenants: WebhookTenants,
  rawBody: string,
  signature: string | null,
  now: Date,
): Promise<WebhookResult> {
  const verified = provider.verifyWebhook(rawBody, signature);
  if (!verified.ok) {
    log.warn({ reason: verified.reason }, "provider webhook refused");
    return { status: 400, body: { received: false, error: "invalid signature" } };
  }
  const t = signedTimestamp(signature ?? "");
  if (t === null || Math.abs(Math.floor(now.getTime() / 1000) - t) > WEBHOOK_TOLERANCE_SECONDS) {
    log.warn({ eventId: verified.event.id }, "provider webhook refused: timestamp outside tolerance");
    return { status: 400, body: { received: false, error: "timestamp outside tolerance" } };
  }
  const event = verified.event;

  let refunds = event.refund ? [event.refund] : [];
  if (event.type === "charge.refunded" && event.paymentIntent) {
    const read = await provider.readPayment(event.paymentIntent);
    if (read.outcome === "ok") refunds = read.snapshot.refunds;
    else if (read.outcome !== "not_found")
      return { status: 503, body: { received: false, error: "provider unavailable" } };
  }
  const ctx = { eventType: event.type, traceId: `webhook-${event.id}`.slice(0, 128), now };
  // Event ids are remembered per endpoint: a delivery verified by one tenant's secret can never mark an id as
  // seen for another tenant's endpoint (or the process-wide one).
  const seenId = (typeof tenants.tenantId === "string" ? `${tenants.tenantId}:${event.id}` : event.id).slice(0, 255);

  return transaction(async (tx) => {
    const fresh = Number(
      (
        await sql`
      INSERT INTO "ProviderWebhookEvent" ("eventId", "type") VALUES (${seenId}, ${event.type.slice(0, 255)})
      ON CONFLICT ("eventId") DO NOTHING`.execute(sqlOf(tx))
      ).numAffectedRows ?? 0n,
    );
    if (fresh === 0) return { status: 200, body: { received: true, duplicate: true } };

    for (const refund of refunds) {
      if (!(await settleOurs(tx, tenants, refund))) await recordExternalRefund(tx, tenants, refund, ctx);
    }
    if (event.type === "charge.dispute.created" && event.paymentIntent && event.dispute) {
      await recordDispute(tx, tenants, event.paymentIntent, event.dispute, ctx);
    }
    return { status: 200, body: { received: true } };
  });
}

/** Settles the execution the refund belongs to, when it is one of ours in the tenants in scope; whether it was. */
async function settleOurs(tx: Tx, tenants: WebhookTenants, refund: ProviderRefund): Promise<boolean> {
  const proposalId = refund.metadata.proposalId;
  const execution = await tx.execution.findFirst({
    where: {
      tenantId: tenants.tenantId,
      OR: [
        { providerRefundId: refund.id },
        ...(proposalId && /^[0-9a-f-]{36}$/i.test(proposalId) ? [{ proposalId }] : []),
      ],
    },
    select: { id: true, tenantId: true },
  });
  if (!execution) return false;
  if (refund.metadata.tenantId && refund.metadata.tenantId !== execution.tenantId) {
    log.warn({ refundId: refund.id }, "provider webhook: tenant in metadata does not match the execution");
    return true;
  }
  await settleWithRefund(tx, execution.id, refund, "webhook");
  return true;
}

/** Deletes remembered event ids older than the tolerance window (such events are refused anyway). */
export async function purgeWebhookEvents(now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - 2 * WEBHOOK_TOLERANCE_SECONDS * 1000);
  return (await db().providerWebhookEvent.deleteMany({ where: { receivedAt: { lt: cutoff } } })).count;
}
