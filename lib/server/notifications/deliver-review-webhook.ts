import "server-only";
import { signWebhook } from "@/lib/domain/webhook-signature";
import { signStandardWebhook, standardWebhookSecretOf } from "@/lib/domain/standard-webhook";
import { db } from "@/lib/server/db/client";
import { webhookAllowPrivate } from "@/lib/server/env";
import { postWebhook, type PostResult } from "./post-webhook";
import { recordWebhookAttempt } from "./record-webhook-attempt";

export const WEBHOOK_TIMEOUT_MS = 5_000;
export { WebhookAttemptFailed } from "./record-webhook-attempt";

/**
 * One delivery attempt of a reviewer webhook (task `deliver_review_webhook`).
 *
 * Reads the tenant's *current* URL and secret (an admin who rotates the secret or turns the webhook off
 * is obeyed by pending retries), signs the stored body, POSTs it, and records the attempt with a
 * guarded update (`status = 'pending'`), so a re-run after success does nothing. 2xx → `delivered`;
 * otherwise the attempt is recorded and the job throws to be retried, and on the last attempt (or a
 * refused URL) the delivery becomes `failed` with an audit event `webhook:failed`.
 * At-least-once: a crash between the POST and the commit resends the same X-Webhook-Id.
 */
export async function deliverReviewWebhook(input: {
  deliveryId: string;
  attempt: number;
  isLastAttempt: boolean;
}): Promise<void> {
  const delivery = await db().webhookDelivery.findUnique({
    where: { id: input.deliveryId },
    select: {
      id: true,
      tenantId: true,
      status: true,
      payload: true,
      proposalId: true,
      tenant: { select: { reviewWebhookUrl: true, reviewWebhookSecret: true } },
    },
  });
  if (!delivery || delivery.status !== "pending") return;

  const { reviewWebhookUrl: url, reviewWebhookSecret: secret } = delivery.tenant;
  let result: PostResult;
  if (!url || !secret) {
    result = { ok: false, status: null, error: "the tenant's reviewer webhook was turned off", permanent: true };
  } else {
    const body = JSON.stringify(delivery.payload);
    // Standard Webhooks (webhook-id / -timestamp / -signature), as decision webhooks sign; the older X-Webhook-*
    // headers are still sent beside them until their deprecation ends (docs/jobs.md "deliver_review_webhook").
    const now = new Date();
    const headers = {
      ...signStandardWebhook({ id: delivery.id, body, secrets: [standardWebhookSecretOf(secret)], now }),
      ...signWebhook({ id: delivery.id, secret, body, now }),
    };
    result = await postWebhook({
      url,
      body,
      headers,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      allowPrivate: webhookAllowPrivate(),
    });
  }

  await recordWebhookAttempt(delivery, result, input, "reviewer webhook");
}
