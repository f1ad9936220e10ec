import "server-only";
import type { Actor } from "@/lib/server/auth/actor";
import { sqlOf } from "@/lib/server/db/sql";
import { enqueueJob } from "@/lib/server/jobs/enqueue";
import { NOTIFICATION_MAX_ATTEMPTS } from "@/lib/server/notifications/enqueue-notifications";
import { resendDelivery } from "./resend-delivery";

/**
 * Gives a `failed` Slack message or e-mail of the admin's tenant a new round of attempts: the same outbox row
 * goes back to `pending` (attempts counted afresh) and its delivery job is enqueued again. The worker builds
 * the message from the database as it is then, so a proposal decided meanwhile makes it `skipped`, not stale.
 * Guarded: only a `failed` row moves, so a double click (or two admins) enqueues once; the move, the job and
 * the audit event (`admin:resend_notification`) commit together.
 */
export function resendNotification(actor: Actor, notificationId: string): Promise<{ id: string; status: "pending" }> {
  return resendDelivery(actor, notificationId, {
    read: (tx, where) =>
      tx.notification.findFirst({ where, select: { id: true, kind: true, channel: true, status: true } }),
    moveToPending: (tx, where) =>
      tx.notification.updateMany({
        where: { ...where, status: "failed" },
        data: { status: "pending", attempts: 0, lastError: null, sentAt: null },
      }),
    refusal: (row) => ["Only a delivery that failed for good can be sent again.", row.status],
    enqueue: (tx, row) =>
      enqueueJob(
        sqlOf(tx),
        "deliver_notification",
        { notificationId: row.id },
        { maxAttempts: NOTIFICATION_MAX_ATTEMPTS },
      ),
    audit: (row) => ({
      action: "resend_notification",
      target: { kind: "notification", id: row.id },
      after: { channel: row.channel, notificationKind: row.kind },
      clear: ["notificationKind"],
    }),
  });
}
