import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { isAdminLevelUpdate } from "@/lib/domain/admin-governance";
import { updateStaffInput, type UpdateStaffInput } from "@/lib/schemas/admin";
import type { Actor } from "@/lib/server/auth/actor";
import { requireStepUp } from "@/lib/server/auth/require-step-up";
import { type Tx } from "@/lib/server/db/client";
import { recordAdminEvent } from "./admin-audit";
import { assertMoved } from "./tenant-row";
import { lockTenantStaff, queueAdminChange, type QueuedAdminChange } from "./admin-change-store";
import { parseForm } from "./zod-problem";
import { isUuid } from "@/lib/domain/validation";
import { transaction } from "@/lib/server/db/transaction";

export type StaffState = { roles: string[]; disabled: boolean; locked: boolean; sessionVersion: number };
export type StaffPatch = Omit<UpdateStaffInput, "stepUpPassword">;
export type AppliedStaffUpdate = { id: string; before: StaffState; after: StaffState };

/**
 * Changes one staff member of the admin's tenant: roles, disabled/enabled, unlock, sign out everywhere.
 *
 * Rules: an admin cannot change their own roles or disable themselves; the tenant always keeps at least
 * one enabled admin (checked under a per-tenant advisory lock, so two admins demoting each other at the
 * same moment cannot both succeed). Disabling, a role change and sign-out bump `sessionVersion`, which
 * voids every session issued before at the next request (getActor compares it). Step-up is required for
 * role changes and disabling. One audit event per call with before → after.
 *
 * An admin-level change (granting or removing admin; disabling, re-enabling or unlocking an admin) does not
 * apply: it waits for a second admin (decideAdminChange), which applies it with applyStaffUpdate.
 */
export async function updateStaff(
  actor: Actor,
  id: string,
  raw: unknown,
): Promise<AppliedStaffUpdate | ({ id: string } & QueuedAdminChange)> {
  assertCan(actor.roles, "admin:manage");
  if (!isUuid(id)) throw new AppError("not_found", "No such staff member.");
  const { stepUpPassword, ...patch } = parseForm(updateStaffInput, raw);
  const self = id === actor.userId;
  if (self && patch.roles !== undefined)
    throw new AppError("permission_denied", "You cannot change your own roles; ask another admin.", {
      reason: "own_roles",
    });
  if (self && patch.disabled === true)
    throw new AppError("permission_denied", "You cannot disable your own account.", { reason: "self_disable" });
  if (patch.roles !== undefined || patch.disabled !== undefined) await requireStepUp(actor, stepUpPassword);

  return transaction(async (tx) => {
    await lockTenantStaff(tx, actor.tenantId);
    const row = await readStaff(tx, actor.tenantId, id);
    if (!isAdminLevelUpdate(row, patch)) return applyStaffUpdate(tx, actor, row, patch);
    await assertKeepsAnAdmin(tx, actor.tenantId, row, patch);
    const queued = await queueAdminChange(tx, actor, {
      kind: "update_staff",
      targetId: id,
      payload: { patch, before: { roles: [...row.roles].sort(), disabled: row.disabled } },
      target: { kind: "staff", id, email: row.email },
      before: stateOf(row),
    });
    return { id, ...queued };
  });
}

type StaffRow = {
  id: string;
  email: string;
  roles: string[];
  disabled: boolean;
  lockedUntil: Date | null;
  sessionVersion: number;
};

export async function readStaff(tx: Tx, tenantId: string, id: string): Promise<StaffRow> {
  const row = await tx.staffUser.findFirst({
    where: { id, tenantId },
    select: { id: true, email: true, roles: true, disabled: true, lockedUntil: true, sessionVersion: true },
  });
  if (!row) throw new AppError("not_found", "No such staff member.");
  return row;
}

const stateOf = (row: StaffRow, now = new Date()): StaffState => ({
  roles: [...row.roles].sort(),
  disabled: row.disabled,
  locked: !!row.lockedUntil && row.lockedUntil > now,
  sessionVersion: row.sessionVersion,
});

async function assertKeepsAnAdmin(tx: Tx, tenantId: string, row: StaffRow, patch: StaffPatch): Promise<void> {
  const wasActiveAdmin = row.roles.includes("admin") && !row.disabled;
  const staysActiveAdmin = (patch.roles ?? row.roles).includes("admin") && !(patch.disabled ?? row.disabled);
  if (!wasActiveAdmin || staysActiveAdmin) return;
  const others = await tx.staffUser.count({
    where: { tenantId, disabled: false, roles: { has: "admin" }, id: { not: row.id } },
  });
  if (others === 0)
    throw new AppError("permission_denied", "The tenant must keep at least one active admin.", {
      reason: "last_admin",
    });
}

/**
 * Applies a staff change in the caller's transaction (under lockTenantStaff): the last-admin rule, a guarded
 * write, the admin provenance (when the role was granted and by whom, read by the second-admin rule) and the
 * `admin:update_staff` event. `grantedByIds` names who granted an admin role this change gives (the
 * proposer, when a second admin approves it); `change` is the approved change's id, for the audit.
 */
export async function applyStaffUpdate(
  tx: Tx,
  actor: Actor,
  row: StaffRow,
  patch: StaffPatch,
  opts: { grantedByIds?: string[]; change?: string } = {},
): Promise<AppliedStaffUpdate> {
  await assertKeepsAnAdmin(tx, actor.tenantId, row, patch);
  const before = stateOf(row);
  const roles = patch.roles ?? before.roles;
  const disabled = patch.disabled ?? row.disabled;
  const rolesChanged = patch.roles !== undefined && roles.join() !== before.roles.join();
  const disabledChanged = disabled !== row.disabled;
  const endSessions = rolesChanged || (disabledChanged && disabled) || patch.signOut === true;
  const wasAdmin = row.roles.includes("admin");
  const isAdmin = roles.includes("admin");
  // The admin role (re)starts when it is granted, or when a disabled admin is enabled again.
  const adminStarts = isAdmin && (!wasAdmin || (row.disabled && !disabled));
  const updated = await tx.staffUser.updateMany({
    // Guarded: the row is still what we read (no lost update between read and write).
    where: { id: row.id, tenantId: actor.tenantId, sessionVersion: row.sessionVersion },
    data: {
      roles: { set: roles as ("ops" | "reviewer" | "auditor" | "admin")[] },
      disabled,
      ...(patch.unlock ? { failedLoginCount: 0, lockedUntil: null } : {}),
      ...(endSessions ? { sessionVersion: { increment: 1 } } : {}),
      // A role a tenant admin (re)starts or removes is no longer the operator's grant.
      ...(adminStarts
        ? {
            adminSince: new Date(),
            adminGrantedByIds: { set: opts.grantedByIds ?? [actor.userId] },
            operatorGrantedAt: null,
          }
        : {}),
      ...(wasAdmin && !isAdmin ? { adminSince: null, adminGrantedByIds: { set: [] }, operatorGrantedAt: null } : {}),
    },
  });
  assertMoved(updated, "This staff member changed meanwhile; reload and try again.", "conflict");
  const after: StaffState = {
    roles,
    disabled,
    locked: patch.unlock ? false : before.locked,
    sessionVersion: row.sessionVersion + (endSessions ? 1 : 0),
  };
  const actions = [
    rolesChanged && "roles",
    disabledChanged && (disabled ? "disable" : "enable"),
    patch.unlock && "unlock",
    patch.signOut && "sign_out",
  ].filter(Boolean);
  await recordAdminEvent(tx, actor, {
    action: "update_staff",
    target: {
      kind: "staff",
      id: row.id,
      email: row.email,
      changes: actions,
      ...(opts.change ? { change: opts.change } : {}),
    },
    before,
    after,
    clear: ["changes", "change"],
  });
  return { id: row.id, before, after };
}
