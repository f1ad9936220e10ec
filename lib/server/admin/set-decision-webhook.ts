import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import { generateStandardWebhookSecret } from "@/lib/domain/standard-webhook";
import { setDecisionWebhookInput } from "@/lib/schemas/admin";
import type { Actor } from "@/lib/server/auth/actor";
import type { Tx } from "@/lib/server/db/client";
import { webhookAllowPrivate } from "@/lib/server/env";
import { checkWebhookUrl } from "@/lib/server/notifications/webhook-url";
import { channelTarget, recordAdminEvent } from "./admin-audit";
import { assertMoved, assertRowId, changeTenantRow, type TenantRowWhere } from "./tenant-row";
import { webhookUrlRefused } from "./update-own-tenant";
import { parseForm } from "./zod-problem";
import { requireStepUp } from "@/lib/server/auth/require-step-up";

/** `secret` only when a new one was issued (first URL or rotation): shown once, never read back. */
export type DecisionWebhookResult = {
  channelId: string;
  url: string | null;
  secret: string | null;
  previousSecretValidUntil: Date | null;
};

/** The channel with its decision webhook, as the change reads it (its secret only to guard the write). */
const readWebhook = (tx: Tx, where: TenantRowWhere) =>
  tx.channel.findFirst({
    where,
    select: { id: true, slug: true, decisionWebhookUrl: true, decisionWebhookSecret: true },
  });

/**
 * Sets a channel's decision webhook URL (docs/design.md "Decisions reach the agent"). The first URL comes with a
 * new `whsec_…` secret; later PUTs keep it unless `rotateSecret`, which issues a new one and keeps the
 * current one signing beside it (a second `v1,` signature) for `overlapMinutes`. Guarded on the secret read,
 * so two parallel rotations cannot both win. Audited with the URL, never a secret.
 */
export async function setDecisionWebhook(
  actor: Actor,
  channelId: string,
  raw: unknown,
  now = new Date(),
): Promise<DecisionWebhookResult> {
  assertCan(actor.roles, "admin:manage");
  assertRowId(channelId, "channel");
  const input = parseForm(setDecisionWebhookInput, raw ?? {});
  // Where the tenant's signed decisions go, and the secret that signs them: a step-up change.
  await requireStepUp(actor, input.stepUpPassword);
  const checked = checkWebhookUrl(input.url, { allowPrivate: webhookAllowPrivate() });
  if (!checked.ok)
    throw webhookUrlRefused(
      checked.problem,
      "This URL cannot receive webhooks (it must be a public http(s) URL without credentials).",
    );
  const url = checked.url.toString();
  return changeTenantRow(actor.tenantId, channelId, "channel", readWebhook, async (tx, channel) => {
    const current = channel.decisionWebhookSecret;
    const issue = !current || input.rotateSecret;
    const secret = issue ? generateStandardWebhookSecret() : null;
    const keepPrevious = issue && current && input.overlapMinutes > 0;
    const previousSecretValidUntil = keepPrevious ? new Date(now.getTime() + input.overlapMinutes * 60_000) : null;
    const updated = await tx.channel.updateMany({
      where: { id: channel.id, tenantId: actor.tenantId, decisionWebhookSecret: current },
      data: {
        decisionWebhookUrl: url,
        ...(secret
          ? {
              decisionWebhookSecret: secret,
              previousDecisionWebhookSecret: keepPrevious ? current : null,
              previousDecisionWebhookSecretUntil: previousSecretValidUntil,
            }
          : {}),
      },
    });
    assertMoved(updated, "The webhook was changed meanwhile; reload and try again.", "conflict");
    await recordAdminEvent(tx, actor, {
      action: "set_decision_webhook",
      target: channelTarget(channel),
      before: { url: channel.decisionWebhookUrl },
      after: {
        url,
        secretRotated: !!secret,
        previousSecretValidUntil: previousSecretValidUntil?.toISOString() ?? null,
      },
      clear: ["url", "secretRotated"],
    });
    return { channelId: channel.id, url, secret, previousSecretValidUntil };
  });
}

/** Turns a channel's decision webhook off (URL and secrets removed); pending deliveries then fail for good. */
export async function clearDecisionWebhook(actor: Actor, channelId: string): Promise<{ channelId: string; url: null }> {
  assertCan(actor.roles, "admin:manage");
  return changeTenantRow(actor.tenantId, channelId, "channel", readWebhook, async (tx, channel) => {
    await tx.channel.updateMany({
      where: { id: channel.id, tenantId: actor.tenantId },
      data: {
        decisionWebhookUrl: null,
        decisionWebhookSecret: null,
        previousDecisionWebhookSecret: null,
        previousDecisionWebhookSecretUntil: null,
      },
    });
    await recordAdminEvent(tx, actor, {
      action: "clear_decision_webhook",
      target: channelTarget(channel),
      before: { url: channel.decisionWebhookUrl },
      after: { url: null },
      clear: ["url"],
    });
    return { channelId: channel.id, url: null };
  });
}
