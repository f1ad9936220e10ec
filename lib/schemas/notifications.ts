import { z } from "zod";
import { deliveryAttemptsShape } from "./delivery-dto";

// Per-user notification preferences: the body of PUT /api/account/notifications and its answer.

/** Only the switches that change; each is a boolean. Unknown keys are refused (a typo is not silently ignored). */
export const updateNotificationPreferencesInput = z.strictObject({
  emailNewProposal: z.boolean().optional(),
  emailExpiring: z.boolean().optional(),
  emailInDoubt: z.boolean().optional(),
});
export type UpdateNotificationPreferencesInput = z.infer<typeof updateNotificationPreferencesInput>;

export const notificationPreferencesDto = z.object({
  emailNewProposal: z.boolean(),
  emailExpiring: z.boolean(),
  emailInDoubt: z.boolean(),
  /** Which switches matter for the user's roles (reviewers: new + expiring; ops: in doubt). */
  applies: z.object({ newProposal: z.boolean(), expiring: z.boolean(), inDoubt: z.boolean() }),
  /** False when the server has no SMTP_URL: nothing is e-mailed whatever the switches say. */
  emailEnabled: z.boolean(),
  expiringWithinMinutes: z.number().int(),
});
export type NotificationPreferencesDto = z.infer<typeof notificationPreferencesDto>;

// The Slack and e-mail delivery history in Admin (GET /api/admin/notification-deliveries; the notification
// outbox, lib/server/admin/list-notification-deliveries.ts) and "Send test" (POST …/test).

export const notificationChannels = ["slack", "email"] as const;

/** POST /api/admin/notification-deliveries/test: a test message to the tenant's Slack webhook, or a test e-mail to the admin. */
export const sendTestNotificationInput = z.strictObject({ channel: z.enum(notificationChannels) });

export const notificationDeliveryDto = z.object({
  id: z.uuid(),
  channel: z.enum(notificationChannels),
  kind: z.enum(["new_proposal", "expiring", "in_doubt", "test"]),
  /** The e-mail's recipient (a staff member of the tenant); null for the Slack channel. */
  recipient: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  /** `failed`: given up after the last attempt; `skipped`: nothing to send any more when the job ran. */
  status: z.enum(["pending", "sent", "failed", "skipped"]),
  sentAt: z.iso.datetime().nullable(),
  ...deliveryAttemptsShape,
});
export type NotificationDeliveryView = z.infer<typeof notificationDeliveryDto>;

export const notificationDeliveriesDto = z.object({ deliveries: z.array(notificationDeliveryDto) });
