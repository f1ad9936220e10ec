import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import type { Actor } from "@/lib/server/auth/actor";
import type { Tx } from "@/lib/server/db/client";
import { recordAdminEvent } from "./admin-audit";
import { assertMoved, changeTenantRow, type TenantRowWhere } from "./tenant-row";

/** What differs between the outboxes (Slack/e-mail notifications, webhook deliveries) when one row is sent again. */
export type ResendSpec<R extends { id: string }> = {
  read: (tx: Tx, where: TenantRowWhere) => Promise<R | null>;
  /** The guarded move back to `pending`: its `where` allows only the states a resend may leave. */
  moveToPending: (tx: Tx, where: TenantRowWhere) => Promise<{ count: number }>;
  /** Why a row that did not move cannot be sent again: message and reason. */
  refusal: (row: R) => [message: string, reason: string];
  enqueue: (tx: Tx, row: R) => Promise<unknown>;
  audit: (row: R) => Parameters<typeof recordAdminEvent>[2];
};

/**
 * Sends one delivery of the admin's tenant again: the row moves back to `pending` by a guarded write (so a double
 * click, or two admins, enqueue once), its delivery job is enqueued again, and the audit event is written — all in
 * one transaction. A malformed id, a missing row and another tenant's row are "No such delivery.".
 */
export async function resendDelivery<R extends { id: string }>(
  actor: Actor,
  id: string,
  spec: ResendSpec<R>,
): Promise<{ id: string; status: "pending" }> {
  assertCan(actor.roles, "admin:manage");
  return changeTenantRow(actor.tenantId, id, "delivery", spec.read, async (tx, row) => {
    assertMoved(await spec.moveToPending(tx, { id: row.id, tenantId: actor.tenantId }), ...spec.refusal(row));
    await spec.enqueue(tx, row);
    await recordAdminEvent(tx, actor, spec.audit(row));
    return { id: row.id, status: "pending" as const };
  });
}
