import "server-only";
import { db } from "@/lib/server/db/client";
import { getPaymentProvider } from "@/lib/server/payments/get-payment-provider";
import { log } from "@/lib/server/log";
import { settleWithRefund } from "./apply-provider-answer";

export type WebhookResult = { status: number; body: { received: boolean; error?: string } };

/**
 * A provider webhook (signature verified over the raw body) settles a late outcome: a pending refund
 * that succeeded or failed later. Unknown refunds and events about other things are acknowledged and
 * ignored; a bad signature is refused (400) and changes nothing.
 */
export async function settleFromWebhook(rawBody: string, signature: string | null): Promise<WebhookResult> {
  const verified = getPaymentProvider().verifyWebhook(rawBody, signature);
  if (!verified.ok) {
    log.warn({ reason: verified.reason }, "provider webhook refused");
    return { status: 400, body: { received: false, error: "invalid signature" } };
  }
  const refund = verified.event.refund;
  if (!refund) return { status: 200, body: { received: true } };
  const proposalId = refund.metadata.proposalId;
  const execution = await db().execution.findFirst({
    where: { OR: [{ providerRefundId: refund.id }, ...(proposalId && /^[0-9a-f-]{36}$/i.test(proposalId) ? [{ proposalId }] : [])] },
    select: { id: true, tenantId: true, proposal: { select: { tenantId: true } } },
  });
  if (!execution) return { status: 200, body: { received: true } };
  if (refund.metadata.tenantId && refund.metadata.tenantId !== execution.tenantId) {
    log.warn({ refundId: refund.id }, "provider webhook: tenant in metadata does not match the execution");
    return { status: 200, body: { received: true } };
  }
  await db().$transaction((tx) => settleWithRefund(tx, execution.id, refund, "webhook"));
  return { status: 200, body: { received: true } };
}
