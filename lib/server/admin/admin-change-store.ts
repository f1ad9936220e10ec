import "server-only";
import { sql, sqlOf } from "@/lib/server/db/sql";
import { AppError } from "@/lib/domain/outcome";
import {
  ADMIN_CHANGE_DAYS,
  approverRefusal,
  approverRefusalMessage,
  singleAdminMessage,
  whoCanApprove,
  type AdminChangeKind,
  type ApproverProvenance,
} from "@/lib/domain/admin-governance";
import type { Actor } from "@/lib/server/auth/actor";
import type { Tx } from "@/lib/server/db/client";
import type { Prisma } from "@/lib/server/db/generated/client";
import { recordAdminEvent } from "./admin-audit";

/** Serializes admin-set staff changes of one tenant (the last-admin rule, one pending change per account). */
export async function lockTenantStaff(tx: Tx, tenantId: string): Promise<void> {
  await sql`SELECT 1 FROM pg_advisory_xact_lock(hashtext('staff-admins'), hashtext(${tenantId}))`.execute(sqlOf(tx));
}

export const provenanceSelect = {
  id: true,
  roles: true,
  disabled: true,
  invitedById: true,
  adminSince: true,
  adminGrantedByIds: true,
  credentialsResetByIds: true,
  credentialsResetAt: true,
  operatorGrantedAt: true,
} as const;

/** The tenant's enabled admins with their provenance (for the approver rule). */
export function activeAdmins(tx: Tx, tenantId: string): Promise<ApproverProvenance[]> {
  return tx.staffUser.findMany({
    where: { tenantId, disabled: false, roles: { has: "admin" } },
    select: provenanceSelect,
  });
}

/**
 * Refuses unless the actor's approval of a change proposed by `proposedById` at `proposedAt` counts
 * (lib/domain/admin-governance.ts approverRefusal). Reads the approver's row in the deciding transaction,
 * so a role or reset granted meanwhile is seen.
 */
export async function assertIndependentApprover(
  tx: Tx,
  actor: Actor,
  change: { proposedById: string | null; proposedAt: Date },
): Promise<void> {
  const approver = await tx.staffUser.findFirst({
    where: { id: actor.userId, tenantId: actor.tenantId },
    select: provenanceSelect,
  });
  const refusal = approver ? approverRefusal(approver, change) : "not_admin";
  if (!refusal) return;
  // Every refusal names who can approve instead (or the operator's way out when nobody can).
  const admins = await tx.staffUser.findMany({
    where: { tenantId: actor.tenantId, disabled: false, roles: { has: "admin" } },
    select: { ...provenanceSelect, name: true, email: true },
    orderBy: { name: "asc" },
  });
  const can = admins.filter((a) => approverRefusal(a, change) === null);
  throw new AppError(
    "permission_denied",
    `${approverRefusalMessage[refusal]} ${whoCanApprove(can, actor.tenantSlug)}`,
    { reason: refusal, approvers: can.map((a) => a.id) },
  );
}

/** Whether some enabled admin other than the proposer could approve a change they propose now. */
export async function hasIndependentAdmin(
  tx: Tx,
  tenantId: string,
  proposedById: string,
  at = new Date(),
): Promise<boolean> {
  const admins = await activeAdmins(tx, tenantId);
  return admins.some((a) => approverRefusal(a, { proposedById, proposedAt: at }) === null);
}

export type QueuedAdminChange = {
  status: "awaiting_second_admin";
  change: { id: string; kind: AdminChangeKind; expiresAt: Date };
};

/**
 * Records an admin-level change as waiting for a second admin (nothing else changes), audited as
 * `admin:propose_change`. Call under lockTenantStaff. Refused when no other admin could ever approve it
 * (the single-admin message), or when the account already has a change waiting.
 */
export async function queueAdminChange(
  tx: Tx,
  actor: Actor,
  input: {
    kind: AdminChangeKind;
    targetId: string | null;
    payload: Prisma.InputJsonObject;
    target: Record<string, unknown>;
    before?: unknown;
  },
): Promise<QueuedAdminChange> {
  const now = new Date();
  if (!(await hasIndependentAdmin(tx, actor.tenantId, actor.userId, now)))
    throw new AppError("permission_denied", singleAdminMessage(actor.tenantSlug), { reason: "no_second_admin" });
  if (input.targetId) {
    // A change past its lifetime no longer blocks a new one for the same account.
    await tx.adminChange.updateMany({
      where: { tenantId: actor.tenantId, targetId: input.targetId, status: "pending", expiresAt: { lte: now } },
      data: { status: "expired" },
    });
    const waiting = await tx.adminChange.findFirst({
      where: { tenantId: actor.tenantId, targetId: input.targetId, status: "pending" },
      select: { id: true },
    });
    if (waiting)
      throw new AppError(
        "permission_denied",
        "A change to this account already waits for a second admin; decide or cancel it first.",
        {
          reason: "change_pending",
          changeId: waiting.id,
        },
      );
  }
  const expiresAt = new Date(now.getTime() + ADMIN_CHANGE_DAYS * 86_400_000);
  const row = await tx.adminChange.create({
    data: {
      tenantId: actor.tenantId,
      kind: input.kind,
      targetId: input.targetId,
      payload: input.payload,
      proposedById: actor.userId,
      createdAt: now,
      expiresAt,
    },
  });
  await recordAdminEvent(tx, actor, {
    action: "propose_change",
    target: { ...input.target, change: row.id, changeKind: input.kind },
    before: input.before ?? null,
    after: { status: "awaiting_second_admin", expiresAt: expiresAt.toISOString(), payload: input.payload },
    clear: ["change", "changeKind", "payload", "patch", "unlock", "signOut"],
  });
  return { status: "awaiting_second_admin", change: { id: row.id, kind: input.kind, expiresAt } };
}
