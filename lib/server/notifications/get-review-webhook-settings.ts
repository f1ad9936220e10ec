import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";

/**
 * The admin's view of the tenant's reviewer webhook: URL and whether a secret exists (never the secret). Its
 * deliveries are in the one delivery history (lib/server/admin/webhook-deliveries.ts, target "review").
 */
export async function getReviewWebhookSettings(actor: Actor) {
  assertCan(actor.roles, "admin:manage");
  const tenant = await db().tenant.findUniqueOrThrow({
    where: { id: actor.tenantId },
    select: { reviewWebhookUrl: true, reviewWebhookSecret: true },
  });
  return { url: tenant.reviewWebhookUrl, hasSecret: tenant.reviewWebhookSecret !== null };
}
