import "server-only";
import { signWebhook } from "@/lib/domain/webhook-signature";
import { db } from "@/lib/server/db/client";
import { webhookAllowPrivate } from "@/lib/server/env";
import { log } from "@/lib/server/log";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import { postWebhook, type PostResult } from "./post-webhook";

const SYSTEM_ACTOR = { type: "system", id: "worker" } as const;
export const WEBHOOK_TIMEOUT_MS = 5_000;

/** Thrown to make graphile-worker retry the job (with its backoff). */
export class WebhookAttemptFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookAttemptFailed";
  }
}

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
export async function deliverReviewWebhook(input: { deliveryId: string; attempt: number; isLastAttempt: boolean }): Promise<void> {
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
    const headers = signWebhook({ id: delivery.id, secret, body });
    result = await postWebhook({ url, body, headers, timeoutMs: WEBHOOK_TIMEOUT_MS, allowPrivate: webhookAllowPrivate() });
  }

  const final = result.ok || result.permanent || input.isLastAttempt;
  const status = result.ok ? "delivered" : final ? "failed" : "pending";
  const lastError = result.ok ? null : result.error;
  const wlog = log.child({ component: "webhooks", deliveryId: delivery.id, tenantId: delivery.tenantId, attempt: input.attempt });

  await db().$transaction(async (tx) => {
    const updated = await tx.webhookDelivery.updateMany({
      where: { id: delivery.id, status: "pending" },
      data: {
        status,
        attempts: { increment: 1 },
        lastStatus: result.status,
        lastError,
        deliveredAt: result.ok ? new Date() : null,
      },
    });
    if (updated.count !== 1 || status === "pending") return;
    const row = await tx.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id }, select: { attempts: true } });
    const proposal = delivery.proposalId
      ? await tx.proposal.findUnique({ where: { id: delivery.proposalId }, select: { id: true, hash: true, traceId: true } })
      : null;
    await recordAuditEvent(tx, {
      tenantId: delivery.tenantId,
      traceId: proposal?.traceId ?? `webhook:${delivery.id}`,
      actor: SYSTEM_ACTOR,
      action: result.ok ? "webhook:delivered" : "webhook:failed",
      outcome: result.ok ? "ok" : "internal_error",
      proposal: proposal ? { id: proposal.id, hash: proposal.hash } : null,
      data: { deliveryId: delivery.id, attempts: row.attempts, httpStatus: result.status, error: lastError },
      redaction: { clear: ["deliveryId", "attempts", "httpStatus", "error"] },
    });
  });

  if (result.ok) {
    wlog.info({ httpStatus: result.status }, "reviewer webhook delivered");
    return;
  }
  if (final) {
    wlog.warn({ httpStatus: result.status, error: result.error }, "reviewer webhook failed for good");
    return;
  }
  wlog.info({ httpStatus: result.status, error: result.error }, "reviewer webhook attempt failed; will retry");
  throw new WebhookAttemptFailed(`webhook attempt ${input.attempt} failed: ${result.error}`);
}
