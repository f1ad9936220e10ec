import "server-only";
import { db } from "@/lib/server/db/client";

/** Finished notifications are kept this long (for the admin's and ops' questions), then deleted. */
export const NOTIFICATION_RETENTION_DAYS = 30;

/**
 * Deletes finished outbox rows (sent, skipped, failed) older than the retention (hourly, with the other
 * bookkeeping purges). Pending rows stay whatever their age: their job still owns them. Their dedupe keys
 * are long past use — proposals expire within hours, executions settle or are reconciled.
 */
export async function purgeOldNotifications(now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - NOTIFICATION_RETENTION_DAYS * 86_400_000);
  const { count } = await db().notification.deleteMany({
    where: { status: { in: ["sent", "skipped", "failed"] }, createdAt: { lt: before } },
  });
  return count;
}
