import "server-only";
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { sendTestNotificationInput } from "@/lib/schemas/notifications";
import type { Actor } from "@/lib/server/auth/actor";
import { sqlOf } from "@/lib/server/db/sql";
import { enqueueJob } from "@/lib/server/jobs/enqueue";
import { NOTIFICATION_MAX_ATTEMPTS } from "@/lib/server/notifications/enqueue-notifications";
import { emailEnabled } from "@/lib/server/notifications/mailer";
import { recordAdminEvent } from "./admin-audit";
import { parseForm } from "./zod-problem";
import { transaction } from "@/lib/server/db/transaction";

/**
 * "Send test": one `test` notification through the outbox and the worker like every other — a message to the
 * tenant's Slack webhook, or an e-mail to the admin who asks (never to an address typed in: the button cannot
 * be used to mail strangers). Refused with `invalid_arguments` when that channel is not configured. Audited
 * as `admin:test_notification` in the same transaction as the row and its job.
 */
export async function sendTestNotification(actor: Actor, raw: unknown): Promise<{ id: string }> {
  assertCan(actor.roles, "admin:manage");
  const { channel } = parseForm(sendTestNotificationInput, raw ?? {});
  if (channel === "email" && !emailEnabled())
    throw new AppError("invalid_arguments", "E-mail is off on this server (SMTP_URL is not set).", {
      problems: [{ path: "$.channel", expected: "a configured channel", message: "E-mail is not configured." }],
    });
  return transaction(async (tx) => {
    if (channel === "slack") {
      const tenant = await tx.tenant.findUniqueOrThrow({
        where: { id: actor.tenantId },
        select: { slackWebhookUrl: true },
      });
      if (!tenant.slackWebhookUrl)
        throw new AppError("invalid_arguments", "Set the Slack webhook first.", {
          problems: [{ path: "$.channel", expected: "a configured channel", message: "No Slack webhook is set." }],
        });
    }
    const id = randomUUID();
    await tx.notification.create({
      data: {
        id,
        tenantId: actor.tenantId,
        kind: "test",
        channel,
        dedupeKey: `test:${channel}:${id}`,
        staffUserId: channel === "email" ? actor.userId : null,
      },
    });
    await enqueueJob(
      sqlOf(tx),
      "deliver_notification",
      { notificationId: id },
      { maxAttempts: NOTIFICATION_MAX_ATTEMPTS },
    );
    await recordAdminEvent(tx, actor, {
      action: "test_notification",
      target: { kind: "tenant", id: actor.tenantId },
      after: { notificationId: id, channel },
      clear: ["notificationId"],
    });
    return { id };
  });
}
