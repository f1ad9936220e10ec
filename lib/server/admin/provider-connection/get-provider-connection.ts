import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import { providerWebhookEvents } from "@/lib/schemas/provider-connection";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { appBaseUrl, secretsKeys } from "@/lib/server/env";

export type { ProviderConnectionView } from "@/lib/schemas/provider-connection";
import type { ProviderConnectionView } from "@/lib/schemas/provider-connection";

/** The admin's view of the tenant's provider connection (docs/systems-of-record.md "Per-tenant connection"). Never a secret. */
export async function getProviderConnection(actor: Actor): Promise<ProviderConnectionView> {
  assertCan(actor.roles, "admin:manage");
  const row = await db().providerConnection.findUnique({
    where: { tenantId: actor.tenantId },
    select: { apiKeyHint: true, updatedAt: true },
  });
  return {
    source: row ? "tenant" : "default",
    apiKeyHint: row?.apiKeyHint ?? null,
    updatedAt: row?.updatedAt.toISOString() ?? null,
    webhookUrl: tenantWebhookUrl(actor.tenantSlug),
    events: providerWebhookEvents,
    canStore: secretsKeys().current !== null,
  };
}

/** The per-tenant provider webhook endpoint (app/api/payments/webhook/[tenantSlug]/route.ts). */
export function tenantWebhookUrl(tenantSlug: string): string {
  return `${appBaseUrl()}/api/payments/webhook/${encodeURIComponent(tenantSlug)}`;
}
