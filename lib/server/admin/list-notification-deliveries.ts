import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import type { NotificationDeliveryView } from "@/lib/schemas/notifications";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { jobKeyFor } from "@/lib/server/jobs/job-types";
import { nextRunAtByJobKey } from "@/lib/server/jobs/next-run-at";
import { shownDeliveryError } from "@/lib/server/notifications/delivery-error";

/**
 * The latest 100 Slack messages and e-mails of the admin's tenant (the Notification outbox), newest first;
 * `channel` narrows to one. The tenant is in the WHERE; the next attempt comes from the delivery job's run_at.
 */
export async function listNotificationDeliveries(
  actor: Actor,
  filter: { channel?: string | null } = {},
): Promise<NotificationDeliveryView[]> {
  assertCan(actor.roles, "admin:manage");
  const channel = filter.channel === "slack" || filter.channel === "email" ? filter.channel : undefined;
  if (filter.channel && !channel) return [];
  const rows = await db().notification.findMany({
    where: { tenantId: actor.tenantId, ...(channel ? { channel } : {}) },
    select: {
      id: true,
      channel: true,
      kind: true,
      status: true,
      attempts: true,
      lastError: true,
      proposalId: true,
      createdAt: true,
      sentAt: true,
      staffUser: { select: { id: true, name: true } },
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 100,
  });
  const keyOf = (id: string) => jobKeyFor("deliver_notification", { notificationId: id })!;
  const next = await nextRunAtByJobKey(rows.filter((r) => r.status === "pending").map((r) => keyOf(r.id)));
  return rows.map((r) => ({
    id: r.id,
    channel: r.channel,
    kind: r.kind,
    recipient: r.staffUser,
    proposalId: r.proposalId,
    status: r.status,
    attempts: r.attempts,
    lastError: shownDeliveryError(r.lastError),
    createdAt: r.createdAt.toISOString(),
    sentAt: r.sentAt?.toISOString() ?? null,
    nextAttemptAt: r.status === "pending" ? (next.get(keyOf(r.id)) ?? null) : null,
  }));
}
