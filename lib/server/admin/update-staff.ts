import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { updateStaffInput } from "@/lib/schemas/admin";
import type { Actor } from "@/lib/server/auth/actor";
import { requireStepUp } from "@/lib/server/auth/require-step-up";
import { db } from "@/lib/server/db/client";
import { recordAdminEvent } from "./admin-audit";
import { parseForm } from "./zod-problem";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type StaffState = { roles: string[]; disabled: boolean; locked: boolean; sessionVersion: number };

/**
 * Changes one staff member of the admin's tenant: roles, disabled/enabled, unlock, sign out everywhere.
 *
 * Rules: an admin cannot change their own roles or disable themselves; the tenant always keeps at least
 * one enabled admin (checked under a per-tenant advisory lock, so two admins demoting each other at the
 * same moment cannot both succeed). Disabling, a role change and sign-out bump `sessionVersion`, which
 * voids every session issued before at the next request (getActor compares it). Step-up is required for
 * role changes and disabling. One audit event per call with before → after.
 */
export async function updateStaff(actor: Actor, id: string, raw: unknown): Promise<{ id: string; before: StaffState; after: StaffState }> {
  assertCan(actor.roles, "admin:manage");
  if (!UUID.test(id)) throw new AppError("not_found", "No such staff member.");
  const input = parseForm(updateStaffInput, raw);
  const self = id === actor.userId;
  if (self && input.roles !== undefined)
    throw new AppError("permission_denied", "You cannot change your own roles; ask another admin.", { reason: "own_roles" });
  if (self && input.disabled === true) throw new AppError("permission_denied", "You cannot disable your own account.", { reason: "self_disable" });
  if (input.roles !== undefined || input.disabled !== undefined) await requireStepUp(actor, input.stepUpPassword);

  return db().$transaction(async (tx) => {
    // Serializes admin-set changes of this tenant (the last-admin rule reads then writes).
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('staff-admins'), hashtext(${actor.tenantId}))`;
    const row = await tx.staffUser.findFirst({
      where: { id, tenantId: actor.tenantId },
      select: { id: true, email: true, roles: true, disabled: true, lockedUntil: true, sessionVersion: true },
    });
    if (!row) throw new AppError("not_found", "No such staff member.");
    const now = new Date();
    const before: StaffState = {
      roles: [...row.roles].sort(),
      disabled: row.disabled,
      locked: !!row.lockedUntil && row.lockedUntil > now,
      sessionVersion: row.sessionVersion,
    };

    const roles = input.roles ?? before.roles;
    const disabled = input.disabled ?? row.disabled;
    const wasActiveAdmin = before.roles.includes("admin") && !row.disabled;
    const staysActiveAdmin = roles.includes("admin") && !disabled;
    if (wasActiveAdmin && !staysActiveAdmin) {
      const others = await tx.staffUser.count({ where: { tenantId: actor.tenantId, disabled: false, roles: { has: "admin" }, id: { not: id } } });
      if (others === 0) throw new AppError("permission_denied", "The tenant must keep at least one active admin.", { reason: "last_admin" });
    }

    const rolesChanged = input.roles !== undefined && roles.join() !== before.roles.join();
    const disabledChanged = disabled !== row.disabled;
    const endSessions = rolesChanged || (disabledChanged && disabled) || input.signOut === true;
    const updated = await tx.staffUser.updateMany({
      // Guarded: the row is still what we read (no lost update between read and write).
      where: { id, tenantId: actor.tenantId, sessionVersion: row.sessionVersion },
      data: {
        roles: { set: roles as ("ops" | "reviewer" | "auditor" | "admin")[] },
        disabled,
        ...(input.unlock ? { failedLoginCount: 0, lockedUntil: null } : {}),
        ...(endSessions ? { sessionVersion: { increment: 1 } } : {}),
      },
    });
    if (updated.count !== 1) throw new AppError("permission_denied", "This staff member changed meanwhile; reload and try again.", { reason: "conflict" });
    const after: StaffState = {
      roles,
      disabled,
      locked: input.unlock ? false : before.locked,
      sessionVersion: row.sessionVersion + (endSessions ? 1 : 0),
    };
    const actions = [
      rolesChanged && "roles",
      disabledChanged && (disabled ? "disable" : "enable"),
      input.unlock && "unlock",
      input.signOut && "sign_out",
    ].filter(Boolean);
    await recordAdminEvent(tx, actor, {
      action: "update_staff",
      target: { kind: "staff", id, email: row.email, changes: actions },
      before,
      after,
      clear: ["changes"],
    });
    return { id, before, after };
  });
}
