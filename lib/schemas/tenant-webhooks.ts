import { z } from "zod";
import { stepUp } from "./step-up";

// The tenant's notification webhooks set from Admin → Notifications, as JSON bodies of
// PUT /api/admin/review-webhook and PUT /api/admin/slack-webhook (a DELETE on either clears it).

/** A URL as long as the column holds (lib/server/notifications/webhook-url.ts checks what it may point at). */
export const MAX_TENANT_WEBHOOK_URL_LENGTH = 2048;

export const setTenantWebhookInput = z.strictObject({
  url: z.string().trim().min(1).max(MAX_TENANT_WEBHOOK_URL_LENGTH),
  ...stepUp,
});
export type SetTenantWebhookInput = z.infer<typeof setTenantWebhookInput>;

export const clearTenantWebhookInput = z.strictObject({ ...stepUp });
