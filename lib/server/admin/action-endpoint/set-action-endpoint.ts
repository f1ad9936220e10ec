import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { sealSecret, secretAad, secretHint } from "@/lib/domain/secret-box";
import { generateStandardWebhookSecret } from "@/lib/domain/standard-webhook";
import { setActionEndpointInput, type SetActionEndpointResult } from "@/lib/schemas/action-endpoint";
import { ACTION_ENDPOINT_SECRET_FIELD } from "@/lib/server/action-endpoint/stored-endpoint";
import type { Actor } from "@/lib/server/auth/actor";
import { requireStepUp } from "@/lib/server/auth/require-step-up";
import { sql, sqlOf } from "@/lib/server/db/sql";
import { transaction } from "@/lib/server/db/transaction";
import { secretsKeys, webhookAllowPrivate } from "@/lib/server/env";
import { checkWebhookUrl, type WebhookUrlProblem } from "@/lib/server/notifications/webhook-url";
import { recordAdminEvent } from "../admin-audit";
import { webhookUrlRefused } from "../update-own-tenant";
import { parseForm } from "../zod-problem";

/**
 * Sets the URL of the tenant's action endpoint (docs/action-endpoint.md). The first save generates its Standard
 * Webhooks signing secret (`whsec_…`); a later save keeps it unless `rotateSecret`: then the one that was current
 * keeps signing beside the new one for `overlapMinutes` (0: it stops at once; a rotation during an overlap ends the
 * older one), so the shop can switch without refusing a request. A new secret is answered this once and stored sealed under SECRETS_KEY (the tenant's id and the field
 * as AAD), like the provider connection; afterwards only its hint is shown. Where signed actions go is a
 * credential change: step-up first. Audited with the URL and the hint, never the secret.
 */
export async function setActionEndpoint(actor: Actor, raw: unknown): Promise<SetActionEndpointResult> {
  assertCan(actor.roles, "admin:manage");
  const input = parseForm(setActionEndpointInput, raw);
  const key = secretsKeys().current;
  if (!key)
    throw new AppError(
      "invalid_arguments",
      "This installation has no SECRETS_KEY, so an action endpoint cannot be stored (docs/operations.md).",
      { problem: "no_secrets_key" },
    );
  const checked = checkWebhookUrl(input.url, { allowPrivate: webhookAllowPrivate() });
  if (!checked.ok) throw webhookUrlRefused(checked.problem, problemMessages[checked.problem]);
  const url = checked.url.toString();
  await requireStepUp(actor, input.stepUpPassword);
  return transaction(async (tx) => {
    // Two admins saving at once are serialised: the second sees the first's row (and keeps its secret) instead of
    // failing on the key, or answering a secret that is not the stored one.
    await sql`SELECT 1 FROM pg_advisory_xact_lock(hashtextextended(${`action-endpoint:${actor.tenantId}`}, 0))`.execute(
      sqlOf(tx),
    );
    const before = await tx.actionEndpoint.findUnique({
      where: { tenantId: actor.tenantId },
      select: { url: true, secretHint: true, secretSealed: true, keyId: true },
    });
    const fresh = before === null || input.rotateSecret === true;
    const secret = fresh ? generateStandardWebhookSecret() : null;
    // The secret that was current keeps signing beside the new one (sealed as it is: same key, same AAD).
    const overlap = before !== null && secret !== null && input.overlapMinutes > 0;
    const previous = secret
      ? overlap
        ? {
            previousSecretSealed: before.secretSealed,
            previousKeyId: before.keyId,
            previousSecretUntil: new Date(Date.now() + input.overlapMinutes * 60_000),
          }
        : { previousSecretSealed: null, previousKeyId: null, previousSecretUntil: null }
      : {};
    const sealed = secret
      ? {
          secretSealed: sealSecret(key, secret, secretAad(actor.tenantId, ACTION_ENDPOINT_SECRET_FIELD)).sealed,
          secretHint: secretHint(secret),
          keyId: key.id,
          ...previous,
        }
      : null;
    const select = { url: true, secretHint: true, previousSecretUntil: true } as const;
    const row = before
      ? await tx.actionEndpoint.update({
          where: { tenantId: actor.tenantId },
          data: { url, ...sealed, updatedById: actor.userId, version: { increment: 1 } },
          select,
        })
      : await tx.actionEndpoint.create({
          data: { tenantId: actor.tenantId, url, ...sealed!, updatedById: actor.userId },
          select,
        });
    await recordAdminEvent(tx, actor, {
      action: "set_action_endpoint",
      target: { kind: "action_endpoint" },
      // Field names without "key"/"secret": the audit writer drops such fields whole (lib/domain/redaction.ts).
      before: before ? { url: before.url, signingHint: before.secretHint } : null,
      after: {
        url: row.url,
        signingHint: row.secretHint,
        signing: before === null ? "set" : secret ? "rotated" : "kept",
        ...(secret && before ? { previousSigningUntil: row.previousSecretUntil?.toISOString() ?? null } : {}),
      },
      clear: ["url", "signingHint", "signing", "previousSigningUntil"],
    });
    return {
      url: row.url,
      secretHint: row.secretHint,
      secret,
      previousSecretUntil:
        row.previousSecretUntil && row.previousSecretUntil > new Date() ? row.previousSecretUntil.toISOString() : null,
    };
  });
}

const problemMessages: Record<WebhookUrlProblem, string> = {
  invalid: "Enter a complete URL, such as https://shop.example.com/actions.",
  protocol: "Only http:// and https:// URLs are allowed.",
  credentials: "Do not put a user name or password in the URL; the signature authenticates us.",
  private_address: "This URL points to an internal network address, which is not allowed.",
  too_long: "The URL is too long.",
};
