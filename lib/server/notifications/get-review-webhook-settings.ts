import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";

/** The admin's view of the tenant's reviewer webhook: URL, whether a secret exists (never the secret), recent deliveries. */
export async function getReviewWebhookSettings(actor: Actor) {
  assertCan(actor.roles, "admin:manage");
  const [tenant, recent] = await Promise.all([
    db().tenant.findUniqueOrThrow({ where: { id: actor.tenantId }, select: { reviewWebhookUrl: true, reviewWebhookSecret: true } }),
    db().webhookDelivery.findMany({
      where: { tenantId: actor.tenantId },
      orderBy: { createdAt: "desc" },
      take: 10,
      select: { id: true, proposalId: true, status: true, attempts: true, lastStatus: true, lastError: true, createdAt: true, deliveredAt: true },
    }),
  ]);
  return { url: tenant.reviewWebhookUrl, hasSecret: tenant.reviewWebhookSecret !== null, recent };
}
