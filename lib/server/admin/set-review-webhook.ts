import "server-only";
import { inputProblems, invalidArguments } from "@/lib/domain/validation";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { generateWebhookSecret } from "@/lib/domain/webhook-signature";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { webhookAllowPrivate } from "@/lib/server/env";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import { checkWebhookUrl, MAX_WEBHOOK_URL_LENGTH, type WebhookUrlProblem } from "@/lib/server/notifications/webhook-url";

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
  if (!parsed.success) throw invalidArguments("Enter the webhook URL.", inputProblems(parsed.error), { problem: "invalid" });
  const input = parsed.data;

  let url: string | null = null;
  let secret: string | null = null;
  if (input.intent === "save") {
    const checked = checkWebhookUrl(input.url, { allowPrivate: webhookAllowPrivate() });
    if (!checked.ok) {
      throw invalidArguments(problemMessages[checked.problem], [{ path: "$.url", expected: "a public https URL", message: problemMessages[checked.problem] }], {
        problem: checked.problem,
      });
    }
    url = checked.url.toString();
    secret = generateWebhookSecret();
  }

  await db().$transaction(async (tx) => {
    // Tenant scope in the where: an admin can only ever change their own tenant.
    const updated = await tx.tenant.updateMany({ where: { id: actor.tenantId, active: true }, data: { reviewWebhookUrl: url, reviewWebhookSecret: secret } });
    if (updated.count !== 1) throw new AppError("not_found", "Tenant not found.");
    await recordAuditEvent(tx, {
      tenantId: actor.tenantId,
      traceId: `admin-${randomUUID()}`,
      actor: { type: "staff", id: actor.userId, authMethod: actor.authMethod },
      action: "admin:set_review_webhook",
      outcome: "ok",
      data: { url, enabled: url !== null },
      redaction: { clear: ["url", "enabled"], maxTextLength: MAX_WEBHOOK_URL_LENGTH },
    });
  });
  return { url, secret };
}

const problemMessages: Record<WebhookUrlProblem, string> = {
  invalid: "Enter a complete URL, such as https://hooks.example.com/review.",
  protocol: "Only http:// and https:// URLs are allowed.",
  credentials: "Do not put a user name or password in the URL; the signature authenticates us.",
  private_address: "This URL points to an internal network address, which is not allowed.",
  too_long: "The URL is too long.",
};
