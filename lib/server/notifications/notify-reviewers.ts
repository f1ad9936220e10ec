import "server-only";
import { randomUUID } from "node:crypto";
import { sql, type Sql, nowUtc } from "@/lib/server/db/sql";
import { appBaseUrl } from "@/lib/server/env";
import { enqueueJob } from "@/lib/server/jobs/enqueue";
import { notifyOfNewProposal } from "./enqueue-notifications";
import { REVIEW_WEBHOOK_EVENT, reviewWebhookPayload } from "./review-webhook-payload";

/** Attempts per delivery before it is `failed` (backoff between them: e^1 … e^7 s, ≈ 30 min in all). */
export const REVIEW_WEBHOOK_MAX_ATTEMPTS = 8;

/**
 * What notifying needs of a new proposal, whatever its kind: the refund gives its amount, a kind without one
 * (docs/action-kinds.md) gives null — messages then name the kind and the order, built when they are delivered.
 */
export type ProposalToNotify = {
  id: string;
  tenantId: string;
  kind: string;
  hash: string;
  amountMinor: number | null;
  currency: string | null;
  expiresAt: Date;
};

/** The tenant's notification endpoints, when the caller has already read them (one round trip less). */
export type TenantNotificationUrls = { reviewWebhookUrl: string | null; slackWebhookUrl: string | null };

/**
 * Call inside the transaction that creates a `pending_approval` proposal of any kind (build-proposal.ts for the
 * refund, insert-kind-proposal.ts for every other kind). Records, in the same
 * transaction, the reviewers' e-mails and the tenant's Slack message (notification outbox,
 * enqueue-notifications.ts) and, if the tenant has a reviewer webhook, a pending `WebhookDelivery` with
 * its delivery job — so notifications exist if and only if the proposal does. Returns the webhook
 * delivery id, or null when the tenant has no webhook. Never calls the network itself. The typed SQL
 * layer (lib/server/db/sql.ts), so it runs in a Prisma transaction or the gateway's pg transaction alike.
 */
export async function notifyReviewersOfProposal(
  q: Sql,
  proposal: ProposalToNotify,
  known?: TenantNotificationUrls,
): Promise<string | null> {
  const targets = known ??
    (await q
      .selectFrom("Tenant")
      .select(["slackWebhookUrl", "reviewWebhookUrl"])
      .where("id", "=", proposal.tenantId)
      .executeTakeFirst()) ?? {
      slackWebhookUrl: null,
      reviewWebhookUrl: null,
    };
  await notifyOfNewProposal(q, proposal, targets);
  if (!targets.reviewWebhookUrl) return null;

  const id = randomUUID();
  const payload = reviewWebhookPayload({ deliveryId: id, proposal, baseUrl: appBaseUrl(), now: new Date() });
  await sql`
    INSERT INTO "WebhookDelivery" ("id", "tenantId", "event", "proposalId", "payload", "createdAt")
    VALUES (${id}::uuid, ${proposal.tenantId}::uuid, ${REVIEW_WEBHOOK_EVENT}, ${proposal.id}::uuid, ${JSON.stringify(payload)}::jsonb, ${nowUtc})`.execute(
    q,
  );
  await enqueueJob(q, "deliver_review_webhook", { deliveryId: id }, { maxAttempts: REVIEW_WEBHOOK_MAX_ATTEMPTS });
  return id;
}
