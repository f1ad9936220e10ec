import "server-only";
import { db } from "@/lib/server/db/client";
import { getPaymentProvider } from "@/lib/server/payments/get-payment-provider";
import { log } from "@/lib/server/log";
import { settleWithRefund } from "./apply-provider-answer";

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
 * A provider webhook (signature verified over the raw body) settles a late outcome: a pending refund
 * that succeeded or failed later. Refused (400, nothing changes): a bad signature, a timestamp outside the
 * tolerance in either direction. An event id seen before is acknowledged (200, duplicate) and not applied
 * again: the id is recorded in the same transaction as the settlement, so two concurrent deliveries of one
 * event apply it once. Unknown refunds and events about other things are acknowledged and ignored.
 */
export async function settleFromWebhook(rawBody: string, signature: string | null, now: Date = new Date()): Promise<WebhookResult> {
  const verified = getPaymentProvider().verifyWebhook(rawBody, signature);
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

  return db().$transaction(async (tx) => {
    const fresh = await tx.$executeRaw`
      INSERT INTO "ProviderWebhookEvent" ("eventId", "type") VALUES (${event.id.slice(0, 255)}, ${event.type.slice(0, 255)})
      ON CONFLICT ("eventId") DO NOTHING`;
    if (fresh === 0) return { status: 200, body: { received: true, duplicate: true } };

    const refund = event.refund;
    if (!refund) return { status: 200, body: { received: true } };
    const proposalId = refund.metadata.proposalId;
    const execution = await tx.execution.findFirst({
      where: { OR: [{ providerRefundId: refund.id }, ...(proposalId && /^[0-9a-f-]{36}$/i.test(proposalId) ? [{ proposalId }] : [])] },
      select: { id: true, tenantId: true },
    });
    if (!execution) return { status: 200, body: { received: true } };
    if (refund.metadata.tenantId && refund.metadata.tenantId !== execution.tenantId) {
      log.warn({ refundId: refund.id }, "provider webhook: tenant in metadata does not match the execution");
      return { status: 200, body: { received: true } };
    }
    await settleWithRefund(tx, execution.id, refund, "webhook");
    return { status: 200, body: { received: true } };
  });
}

/** Deletes remembered event ids older than the tolerance window (such events are refused anyway). */
export async function purgeWebhookEvents(now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - 2 * WEBHOOK_TOLERANCE_SECONDS * 1000);
  return (await db().providerWebhookEvent.deleteMany({ where: { receivedAt: { lt: cutoff } } })).count;
}
