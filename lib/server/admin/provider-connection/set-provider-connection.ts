import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { sealSecret, secretAad, secretHint } from "@/lib/domain/secret-box";
import { setProviderConnectionInput } from "@/lib/schemas/provider-connection";
import type { Actor } from "@/lib/server/auth/actor";
import { requireStepUp } from "@/lib/server/auth/require-step-up";
import { secretsKeys } from "@/lib/server/env";
import { recordAdminEvent } from "../admin-audit";
import { parseForm } from "../zod-problem";
import { transaction } from "@/lib/server/db/transaction";

/**
 * Stores the tenant's own Stripe restricted key and webhook signing secret (docs/systems-of-record.md
 * "Per-tenant connection"), both sealed with AES-256-GCM under SECRETS_KEY, the tenant's id as AAD. A
 * credential change, so step-up first (like agent and integration keys). The version goes up in the same
 * statement, so every process rebuilds its cached provider (lib/server/payments/get-payment-provider.ts).
 * Audited with the key's hint only (`rk_test_…abcd`): never the key or the secret.
 */
export async function setProviderConnection(
  actor: Actor,
  raw: unknown,
): Promise<{ source: "tenant"; apiKeyHint: string }> {
  assertCan(actor.roles, "admin:manage");
  const input = parseForm(setProviderConnectionInput, raw);
  const key = secretsKeys().current;
  if (!key)
    throw new AppError(
      "invalid_arguments",
      "This installation has no SECRETS_KEY, so a provider connection cannot be stored (docs/operations.md).",
      {
        problem: "no_secrets_key",
      },
    );
  await requireStepUp(actor, input.stepUpPassword);
  const apiKeyHint = secretHint(input.apiKey);
  const apiKey = sealSecret(key, input.apiKey, secretAad(actor.tenantId, "apiKey"));
  const webhookSecret = sealSecret(key, input.webhookSecret, secretAad(actor.tenantId, "webhookSecret"));
  return transaction(async (tx) => {
    const before = await tx.providerConnection.findUnique({
      where: { tenantId: actor.tenantId },
      select: { apiKeyHint: true },
    });
    await tx.providerConnection.upsert({
      where: { tenantId: actor.tenantId },
      create: {
        tenantId: actor.tenantId,
        apiKeyHint,
        apiKeySealed: apiKey.sealed,
        webhookSecretSealed: webhookSecret.sealed,
        keyId: key.id,
        updatedById: actor.userId,
      },
      update: {
        apiKeyHint,
        apiKeySealed: apiKey.sealed,
        webhookSecretSealed: webhookSecret.sealed,
        keyId: key.id,
        updatedById: actor.userId,
        version: { increment: 1 },
      },
    });
    await recordAdminEvent(tx, actor, {
      action: "set_provider_connection",
      target: { kind: "provider_connection", provider: "stripe" },
      // Field names without "key"/"secret": the audit writer drops such fields whole (lib/domain/redaction.ts).
      before: before ? { restrictedHint: before.apiKeyHint, webhookSigning: "set" } : null,
      after: { restrictedHint: apiKeyHint, webhookSigning: before ? "replaced" : "set" },
      clear: ["provider", "restrictedHint", "webhookSigning"],
    });
    return { source: "tenant" as const, apiKeyHint };
  });
}
