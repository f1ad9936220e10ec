import "server-only";
import { inputProblems, invalidArguments } from "@/lib/domain/validation";
import { z } from "zod";
import { assertCan } from "@/lib/domain/permissions";
import { generateStandardWebhookSecret } from "@/lib/domain/standard-webhook";
import type { Actor } from "@/lib/server/auth/actor";
import { webhookAllowPrivate } from "@/lib/server/env";
import { updateOwnTenant, webhookUrlRefused } from "@/lib/server/admin/update-own-tenant";
import {
  checkWebhookUrl,
  MAX_WEBHOOK_URL_LENGTH,
  type WebhookUrlProblem,
} from "@/lib/server/notifications/webhook-url";

/** `save` sets the URL and issues a new secret; `clear` turns the webhook off (URL and secret removed). */
export const setReviewWebhookInput = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("save"), url: z.string().trim().min(1).max(MAX_WEBHOOK_URL_LENGTH) }),
  z.object({ intent: z.literal("clear") }),
]);
export type SetReviewWebhookInput = z.infer<typeof setReviewWebhookInput>;

/** `secret` is returned once, right after saving, to be shown to the admin; it is never read back. */
export type SetReviewWebhookResult = { url: string | null; secret: string | null };

/**
 * Sets or clears the reviewer webhook of the admin's own tenant. Every save generates a new random
 * signing secret (the old one stops working at once, also for pending retries). Audited as
 * `admin:set_review_webhook` with the URL — never the secret.
 */
export async function setReviewWebhook(actor: Actor, raw: unknown): Promise<SetReviewWebhookResult> {
  assertCan(actor.roles, "admin:manage");
  const parsed = setReviewWebhookInput.safeParse(raw);
  if (!parsed.success)
    throw invalidArguments("Enter the webhook URL.", inputProblems(parsed.error), { problem: "invalid" });
  const input = parsed.data;

  let url: string | null = null;
  let secret: string | null = null;
  if (input.intent === "save") {
    const checked = checkWebhookUrl(input.url, { allowPrivate: webhookAllowPrivate() });
    if (!checked.ok) throw webhookUrlRefused(checked.problem, problemMessages[checked.problem]);
    url = checked.url.toString();
    secret = generateStandardWebhookSecret();
  }

  await updateOwnTenant(
    actor,
    { reviewWebhookUrl: url, reviewWebhookSecret: secret },
    {
      action: "admin:set_review_webhook",
      data: { url, enabled: url !== null },
      redaction: { clear: ["url", "enabled"], maxTextLength: MAX_WEBHOOK_URL_LENGTH },
    },
  );
  return { url, secret };
}

const problemMessages: Record<WebhookUrlProblem, string> = {
  invalid: "Enter a complete URL, such as https://hooks.example.com/review.",
  protocol: "Only http:// and https:// URLs are allowed.",
  credentials: "Do not put a user name or password in the URL; the signature authenticates us.",
  private_address: "This URL points to an internal network address, which is not allowed.",
  too_long: "The URL is too long.",
};
