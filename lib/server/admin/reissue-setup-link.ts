import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { isAdminLevelSetupLink } from "@/lib/domain/admin-governance";
import type { Actor } from "@/lib/server/auth/actor";
import { requireStepUp } from "@/lib/server/auth/require-step-up";
import { type Tx } from "@/lib/server/db/client";
import { recordAdminEvent } from "./admin-audit";
import { lockTenantStaff, queueAdminChange, type QueuedAdminChange } from "./admin-change-store";
import { issueSetupToken } from "./setup-token";
import { isUuid } from "@/lib/domain/validation";
import { transaction } from "@/lib/server/db/transaction";

export type SetupLink = { setupUrl: string; expiresAt: Date };

/**
 * A new one-time setup link for a staff member of the admin's tenant (a lost invitation, or a password
 * reset: the old password keeps working until the link is used). Voids earlier links. Step-up required:
 * whoever holds the link can set the person's password.
 *
 * For an enabled admin it waits for a second admin (whoever holds the link could take over that admin);
 * the approving admin is shown the link (decideAdminChange).
 */
export async function reissueSetupLink(
  actor: Actor,
  id: string,
  raw: { stepUpPassword?: unknown } = {},
): Promise<SetupLink | QueuedAdminChange> {
  assertCan(actor.roles, "admin:manage");
  if (!isUuid(id)) throw new AppError("not_found", "No such staff member.");
  if (id === actor.userId)
    throw new AppError("permission_denied", "Use your own account page to change your password.", { reason: "self" });
  await requireStepUp(actor, typeof raw.stepUpPassword === "string" ? raw.stepUpPassword : undefined);
  return transaction(async (tx) => {
    await lockTenantStaff(tx, actor.tenantId);
    const row = await readLinkTarget(tx, actor.tenantId, id);
    if (!isAdminLevelSetupLink(row)) return applySetupLink(tx, actor, row, { issuedByIds: [actor.userId] });
    return queueAdminChange(tx, actor, {
      kind: "setup_link",
      targetId: id,
      payload: {},
      target: { kind: "staff", id, email: row.email },
    });
  });
}

type LinkTarget = { id: string; email: string; roles: string[]; disabled: boolean };

export async function readLinkTarget(tx: Tx, tenantId: string, id: string): Promise<LinkTarget> {
  const row = await tx.staffUser.findFirst({
    where: { id, tenantId },
    select: { id: true, email: true, roles: true, disabled: true },
  });
  if (!row) throw new AppError("not_found", "No such staff member.");
  if (row.disabled)
    throw new AppError("permission_denied", "Enable the account before sending a setup link.", { reason: "disabled" });
  return row;
}

/** Issues the link in the caller's transaction and records who could have held it (`issuedByIds`), audited. */
export async function applySetupLink(
  tx: Tx,
  actor: Actor,
  row: LinkTarget,
  opts: { issuedByIds: string[]; change?: string },
): Promise<SetupLink> {
  const link = await issueSetupToken(tx, { tenantId: actor.tenantId, staffUserId: row.id, createdById: actor.userId });
  await tx.staffUser.updateMany({
    where: { id: row.id, tenantId: actor.tenantId },
    data: { credentialsResetByIds: { set: opts.issuedByIds }, credentialsResetAt: new Date() },
  });
  await recordAdminEvent(tx, actor, {
    action: "reissue_setup_link",
    target: { kind: "staff", id: row.id, email: row.email, ...(opts.change ? { change: opts.change } : {}) },
    after: { expiresAt: link.expiresAt.toISOString() },
    clear: ["change"],
  });
  return link;
}
