import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import { providerWebhookEvents } from "@/lib/schemas/provider-connection";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { appBaseUrl, secretsKeys } from "@/lib/server/env";

export type ProviderConnectionView = {
  /** "tenant": its own key is stored; "default": the process-wide PAYMENT_PROVIDER_* settings are used. */
  source: "tenant" | "default";
  /** `rk_test_…abcd`: never the key. */
  apiKeyHint: string | null;
  updatedAt: string | null;
  /** Where the provider must send this tenant's events, and which ones. */
  webhookUrl: string;
  events: readonly string[];
  /** False when SECRETS_KEY is not configured: nothing can be stored. */
  canStore: boolean;
};

/** The admin's view of the tenant's provider connection (docs/systems-of-record.md "Per-tenant connection"). Never a secret. */
export async function getProviderConnection(actor: Actor): Promise<ProviderConnectionView> {
  assertCan(actor.roles, "admin:manage");
  const row = await db().providerConnection.findUnique({ where: { tenantId: actor.tenantId }, select: { apiKeyHint: true, updatedAt: true } });
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
