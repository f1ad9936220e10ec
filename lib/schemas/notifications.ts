import { z } from "zod";

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
