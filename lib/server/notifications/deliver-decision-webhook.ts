import "server-only";
import { signStandardWebhook } from "@/lib/domain/standard-webhook";
import { db } from "@/lib/server/db/client";
import { webhookAllowPrivate } from "@/lib/server/env";
import { WEBHOOK_TIMEOUT_MS } from "./deliver-review-webhook";
import { postWebhook, type PostResult } from "./post-webhook";
import { recordWebhookAttempt } from "./record-webhook-attempt";

/** Attempts per decision delivery (the SQL trigger that enqueues it says 8 too); backoff e^1 … e^7 s. */
export const DECISION_WEBHOOK_MAX_ATTEMPTS = 8;

/**
 * One delivery attempt of a channel's decision webhook (task `deliver_decision_webhook`; the delivery row
 * and its job are written by the database at the commit of the proposal's change). Reads the channel's
 * *current* URL and secrets (a cleared webhook or a rotated secret is obeyed by pending retries), signs the
 * stored body in the Standard Webhooks format — with the previous secret too while its overlap lasts — and
 * POSTs it through the same guarded client as every webhook (post-webhook.ts: SSRF checks at connect time,
 * no redirects, bounded). At least once: the same `webhook-id` on every attempt, receivers deduplicate on it.
 */
export async function deliverDecisionWebhook(
  input: { deliveryId: string; attempt: number; isLastAttempt: boolean },
  now = new Date(),
): Promise<void> {
  const delivery = await db().webhookDelivery.findUnique({
    where: { id: input.deliveryId },
    select: { id: true, tenantId: true, channelId: true, status: true, payload: true, proposalId: true },
  });
  if (!delivery || delivery.status !== "pending" || !delivery.channelId) return;
  const channel = await db().channel.findFirst({
    where: { id: delivery.channelId, tenantId: delivery.tenantId },
    select: {
      decisionWebhookUrl: true,
      decisionWebhookSecret: true,
      previousDecisionWebhookSecret: true,
      previousDecisionWebhookSecretUntil: true,
    },
  });
  let result: PostResult;
  if (!channel?.decisionWebhookUrl || !channel.decisionWebhookSecret) {
    result = { ok: false, status: null, error: "the channel's decision webhook was turned off", permanent: true };
  } else {
    const body = JSON.stringify(delivery.payload);
    const secrets = [channel.decisionWebhookSecret];
    const until = channel.previousDecisionWebhookSecretUntil;
    if (channel.previousDecisionWebhookSecret && until && until > now)
      secrets.push(channel.previousDecisionWebhookSecret);
    const headers = signStandardWebhook({ id: delivery.id, body, secrets, now });
    result = await postWebhook({
      url: channel.decisionWebhookUrl,
      body,
      headers,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      allowPrivate: webhookAllowPrivate(),
    });
  }
  await recordWebhookAttempt(delivery, result, input, "decision webhook");
}
