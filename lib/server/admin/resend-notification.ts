import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import type { Actor } from "@/lib/server/auth/actor";
import type { Tx } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { enqueueJob } from "@/lib/server/jobs/enqueue";
import { NOTIFICATION_MAX_ATTEMPTS } from "@/lib/server/notifications/enqueue-notifications";
import { recordAdminEvent } from "./admin-audit";
import { assertMoved, changeTenantRow, type TenantRowWhere } from "./tenant-row";

const readNotification = (tx: Tx, where: TenantRowWhere) =>
  tx.notification.findFirst({ where, select: { kind: true, channel: true, status: true } });

/**
 * Gives a `failed` Slack message or e-mail of the admin's tenant a new round of attempts: the same outbox row
 * goes back to `pending` (attempts counted afresh) and its delivery job is enqueued again. The worker builds
 * the message from the database as it is then, so a proposal decided meanwhile makes it `skipped`, not stale.
 * Guarded: only a `failed` row moves, so a double click (or two admins) enqueues once; the move, the job and
 * the audit event (`admin:resend_notification`) commit together.
 */
export async function resendNotification(
  actor: Actor,
  notificationId: string,
): Promise<{ id: string; status: "pending" }> {
  assertCan(actor.roles, "admin:manage");
  return changeTenantRow(actor.tenantId, notificationId, "delivery", readNotification, async (tx, row) => {
    const moved = await tx.notification.updateMany({
      where: { id: notificationId, tenantId: actor.tenantId, status: "failed" },
      data: { status: "pending", attempts: 0, lastError: null, sentAt: null },
    });
    assertMoved(moved, "Only a delivery that failed for good can be sent again.", row.status);
    await enqueueJob(sqlOf(tx), "deliver_notification", { notificationId }, { maxAttempts: NOTIFICATION_MAX_ATTEMPTS });
    await recordAdminEvent(tx, actor, {
      action: "resend_notification",
      target: { kind: "notification", id: notificationId },
      after: { channel: row.channel, notificationKind: row.kind },
      clear: ["notificationKind"],
    });
    return { id: notificationId, status: "pending" as const };
  });
}
