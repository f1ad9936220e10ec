import "server-only";
import { z } from "zod";
import { assertCan } from "@/lib/domain/permissions";
import { inputProblems, invalidArguments } from "@/lib/domain/validation";
import type { Actor } from "@/lib/server/auth/actor";
import { updateOwnTenant, webhookUrlRefused } from "@/lib/server/admin/update-own-tenant";
import { db } from "@/lib/server/db/client";
import { webhookAllowPrivate } from "@/lib/server/env";
import { checkWebhookUrl, MAX_WEBHOOK_URL_LENGTH, type WebhookUrlProblem } from "./webhook-url";

// The tenant's Slack-compatible incoming webhook: a second, separate reviewer channel beside the signed
// generic webhook (set-review-webhook.ts). Separate because the two differ in kind: the generic one is for
// systems (signed JSON, ids and a link), this one is for people in a chat (Block Kit text, unsigned — an
// incoming-webhook URL *is* its own credential). So the URL is stored but never shown back in full, and
// audited by host only.

export const setSlackWebhookInput = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("save"), url: z.string().trim().min(1).max(MAX_WEBHOOK_URL_LENGTH) }),
  z.object({ intent: z.literal("clear") }),
]);

export type SlackUrlProblem = WebhookUrlProblem | "https_required";

/** https only (the URL is a credential), unless private addresses are allowed (demo, tests). */
export function checkSlackWebhookUrl(
  raw: string,
  allowPrivate: boolean,
): { ok: true; url: URL } | { ok: false; problem: SlackUrlProblem } {
  const checked = checkWebhookUrl(raw, { allowPrivate });
  if (!checked.ok) return checked;
  if (!allowPrivate && checked.url.protocol !== "https:") return { ok: false, problem: "https_required" };
  return checked;
}

export async function getSlackWebhookSettings(actor: Actor): Promise<{ host: string | null }> {
  assertCan(actor.roles, "admin:manage");
  const tenant = await db().tenant.findUniqueOrThrow({
    where: { id: actor.tenantId },
    select: { slackWebhookUrl: true },
  });
  return { host: tenant.slackWebhookUrl ? new URL(tenant.slackWebhookUrl).host : null };
}

/** Sets or clears the Slack webhook of the admin's own tenant; audited as `admin:set_slack_webhook` (host only). */
export async function setSlackWebhook(actor: Actor, raw: unknown): Promise<{ host: string | null }> {
  assertCan(actor.roles, "admin:manage");
  const parsed = setSlackWebhookInput.safeParse(raw);
  if (!parsed.success)
    throw invalidArguments("Enter the incoming webhook URL.", inputProblems(parsed.error), { problem: "invalid" });
  let url: string | null = null;
  if (parsed.data.intent === "save") {
    const checked = checkSlackWebhookUrl(parsed.data.url, webhookAllowPrivate());
    if (!checked.ok) throw webhookUrlRefused(checked.problem, problemMessages[checked.problem]);
    url = checked.url.toString();
  }
  const host = url ? new URL(url).host : null;
  await updateOwnTenant(
    actor,
    { slackWebhookUrl: url },
    {
      action: "admin:set_slack_webhook",
      data: { host, enabled: url !== null },
      redaction: { clear: ["host", "enabled"] },
    },
  );
  return { host };
}

const problemMessages: Record<SlackUrlProblem, string> = {
  invalid: "Enter a complete URL, such as https://hooks.slack.com/services/….",
  protocol: "Only https:// URLs are allowed.",
  https_required: "Only https:// URLs are allowed: the address is a credential and must not travel in clear.",
  credentials: "Do not put a user name or password in the URL.",
  private_address: "This URL points to an internal network address, which is not allowed.",
  too_long: "The URL is too long.",
};
