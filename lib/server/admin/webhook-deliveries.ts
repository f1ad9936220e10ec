import "server-only";
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import type { Actor } from "@/lib/server/auth/actor";
import { db, type Tx } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { enqueueJob } from "@/lib/server/jobs/enqueue";
import { jobTable } from "@/lib/server/jobs/job-types";
import { nextRunAtByJobKey } from "@/lib/server/jobs/next-run-at";
import { DECISION_WEBHOOK_MAX_ATTEMPTS } from "@/lib/server/notifications/deliver-decision-webhook";
import { REVIEW_WEBHOOK_MAX_ATTEMPTS } from "@/lib/server/notifications/notify-reviewers";
import type { WebhookDeliveryView } from "@/lib/schemas/webhook-delivery-dto";
import { recordAdminEvent } from "./admin-audit";
import { assertRowId, notFound } from "./tenant-row";
import { resendDelivery } from "./resend-delivery";
import { isUuid } from "@/lib/domain/validation";
import { transaction } from "@/lib/server/db/transaction";

// The delivery history of the tenant's webhooks (the reviewer webhook and each channel's decision webhook:
// rows of WebhookDelivery), resend, and "send test". Every query has the admin's tenant in its WHERE.

export const TEST_WEBHOOK_EVENT = "webhook.test";
export type { WebhookDeliveryView };

/** The job that sends a delivery: its key is the task's prefix and the delivery id (lib/server/jobs/job-types.ts). */
const jobKeyOf = (channelId: string | null, id: string) =>
  `${(channelId ? jobTable.deliver_decision_webhook : jobTable.deliver_review_webhook).keyPrefix}${id}`;

/** The latest 100 deliveries, newest first; `channelId` narrows to one channel's decision webhook, "review" to the reviewer webhook. */
export async function listWebhookDeliveries(
  actor: Actor,
  filter: { target?: string | null; channelId?: string | null } = {},
): Promise<WebhookDeliveryView[]> {
  assertCan(actor.roles, "admin:manage");
  const channelId = filter.channelId && isUuid(filter.channelId) ? filter.channelId : undefined;
  if (filter.channelId && !channelId) return [];
  const rows = await db().webhookDelivery.findMany({
    where: {
      tenantId: actor.tenantId,
      ...(channelId
        ? { channelId }
        : filter.target === "review"
          ? { channelId: null }
          : filter.target === "decision"
            ? { channelId: { not: null } }
            : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 100,
  });
  const next = await nextRunAtByJobKey(
    rows.filter((r) => r.status === "pending").map((r) => jobKeyOf(r.channelId, r.id)),
  );
  return rows.map((r) => ({
    id: r.id,
    target: r.channelId ? "decision" : "review",
    channelId: r.channelId,
    event: r.event,
    proposalId: r.proposalId,
    status: r.status,
    attempts: r.attempts,
    lastStatus: r.lastStatus,
    lastError: r.lastError,
    createdAt: r.createdAt.toISOString(),
    deliveredAt: r.deliveredAt?.toISOString() ?? null,
    nextAttemptAt: r.status === "pending" ? (next.get(jobKeyOf(r.channelId, r.id)) ?? null) : null,
  }));
}

async function enqueueDelivery(tx: Tx, id: string, channelId: string | null) {
  if (channelId)
    await enqueueJob(
      sqlOf(tx),
      "deliver_decision_webhook",
      { deliveryId: id },
      { maxAttempts: DECISION_WEBHOOK_MAX_ATTEMPTS },
    );
  else
    await enqueueJob(
      sqlOf(tx),
      "deliver_review_webhook",
      { deliveryId: id },
      { maxAttempts: REVIEW_WEBHOOK_MAX_ATTEMPTS },
    );
}

/**
 * Sends a delivered or failed delivery again, with the same webhook id and body (a receiver that already has
 * it deduplicates; one that missed it gets it). Guarded: only a delivery that is not pending moves back to
 * pending, so a double click enqueues once. Audited as `admin:resend_webhook`.
 */
export function resendWebhookDelivery(actor: Actor, deliveryId: string): Promise<{ id: string; status: "pending" }> {
  return resendDelivery(actor, deliveryId, {
    read: (tx, where) => tx.webhookDelivery.findFirst({ where, select: { id: true, channelId: true, event: true } }),
    moveToPending: (tx, where) =>
      tx.webhookDelivery.updateMany({
        where: { ...where, status: { in: ["delivered", "failed"] } },
        data: { status: "pending", attempts: 0, lastError: null, lastStatus: null, deliveredAt: null },
      }),
    refusal: () => ["This delivery is still being sent.", "pending"],
    enqueue: (tx, row) => enqueueDelivery(tx, row.id, row.channelId),
    audit: (row) => ({
      action: "resend_webhook",
      target: { kind: "webhook_delivery", id: row.id },
      after: { event: row.event },
      clear: ["event"],
    }),
  });
}

/**
 * Queues a `webhook.test` delivery to the reviewer webhook (`channelId` null) or to a channel's decision
 * webhook, signed and retried like any other; the admin then watches it in the delivery history.
 */
export async function sendTestWebhook(
  actor: Actor,
  channelId: string | null,
  now = new Date(),
): Promise<{ id: string }> {
  assertCan(actor.roles, "admin:manage");
  if (channelId !== null) assertRowId(channelId, "channel");
  return transaction(async (tx) => {
    const configured = channelId
      ? await tx.channel
          .findFirst({ where: { id: channelId, tenantId: actor.tenantId }, select: { decisionWebhookUrl: true } })
          .then((c) => {
            if (!c) throw notFound("channel");
            return !!c.decisionWebhookUrl;
          })
      : await tx.tenant
          .findUniqueOrThrow({ where: { id: actor.tenantId }, select: { reviewWebhookUrl: true } })
          .then((t) => !!t.reviewWebhookUrl);
    if (!configured)
      throw new AppError("invalid_arguments", "Set the webhook URL first.", {
        problems: [{ path: "$.url", expected: "a configured webhook URL", message: "No webhook URL is set." }],
      });
    const id = randomUUID();
    const timestamp = now.toISOString();
    const payload = channelId
      ? { type: TEST_WEBHOOK_EVENT, timestamp, data: { channel_id: channelId } }
      : { type: TEST_WEBHOOK_EVENT, id, createdAt: timestamp };
    await tx.webhookDelivery.create({
      data: { id, tenantId: actor.tenantId, channelId, event: TEST_WEBHOOK_EVENT, payload, createdAt: now },
    });
    await enqueueDelivery(tx, id, channelId);
    await recordAdminEvent(tx, actor, {
      action: "test_webhook",
      target: { kind: channelId ? "channel" : "tenant", id: channelId ?? actor.tenantId },
      after: { deliveryId: id },
      clear: ["deliveryId"],
    });
    return { id };
  });
}
