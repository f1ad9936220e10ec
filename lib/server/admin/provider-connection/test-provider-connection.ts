import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { paymentProviderFor, ProviderConnectionUnusable } from "@/lib/server/payments/get-payment-provider";

export type { ConnectionTest } from "@/lib/schemas/provider-connection";
import type { ConnectionTest } from "@/lib/schemas/provider-connection";

/**
 * "Test connection": one real call to the provider with the tenant's connection (its own key, else the default),
 * the read its payments need anyway (lib/server/payments/stripe-provider.ts checkCredentials). Reports what the
 * provider said; the message is the provider's (Stripe masks keys in it) or ours, never a credential.
 */
export async function testProviderConnection(actor: Actor): Promise<ConnectionTest> {
  assertCan(actor.roles, "admin:manage");
  const own = await db().providerConnection.count({ where: { tenantId: actor.tenantId } });
  const source = own > 0 ? "tenant" : "default";
  let provider;
  try {
    provider = await paymentProviderFor(actor.tenantId);
  } catch (error) {
    if (error instanceof ProviderConnectionUnusable)
      return { ok: false, source, problem: "unusable", message: error.message };
    throw error;
  }
  const answer = await provider.checkCredentials();
  if (answer.outcome === "ok") return { ok: true, source };
  if (answer.outcome === "refused") return { ok: false, source, problem: "refused", message: answer.message };
  return { ok: false, source, problem: "unreachable", message: answer.message };
}
