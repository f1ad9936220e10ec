import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { adminChangeStatus, type AdminChangeStatus, type WitnessPolicyChange } from "@/lib/domain/admin-governance";
import { assertCan } from "@/lib/domain/permissions";
import { decidePolicyInput, inviteStaffInput, updateStaffInput } from "@/lib/schemas/admin";
import type { Actor } from "@/lib/server/auth/actor";
import { requireStepUp } from "@/lib/server/auth/require-step-up";
import { recordAdminEvent } from "./admin-audit";
import { assertIndependentApprover, lockTenantStaff } from "./admin-change-store";
import { createInvitedStaff } from "./invite-staff";
import { applySetupLink, readLinkTarget } from "./reissue-setup-link";
import { applyStaffUpdate, readStaff } from "./update-staff";
import { parseForm } from "./zod-problem";
import { applyWitnessRemoval } from "./witnesses/remove-witness";
import { applyApprovedQuorum } from "./witnesses/set-witness-quorum";
import { applyApprovedConfirmationPolicy } from "./confirmation-policy";
import { applyApprovedBulkPolicy, type BulkPolicyChange } from "./segments";
import { isUuid, takenError } from "@/lib/domain/validation";
import { transaction } from "@/lib/server/db/transaction";

const notFound = () => new AppError("not_found", "No such admin change.");
const notPending = () =>
  new AppError("permission_denied", "This change does not wait for a decision.", { reason: "not_pending" });

export type AdminChangeDecision = "approve" | "reject" | "cancel";
export type DecidedAdminChange = {
  id: string;
  status: Exclude<AdminChangeStatus, "pending" | "expired">;
  /** An approved invitation: the new account. */
  staffId?: string;
  /** An approved invitation or setup link: the one-time link, shown once to the approving admin. */
  setupUrl?: string;
  expiresAt?: Date;
};

/**
 * Decides an admin-level change waiting for a second admin (docs/admin-api.md "Changes that need a second
 * admin"). Approve (step-up): only an independent admin counts (assertIndependentApprover), and the change is
 * applied in the same transaction as the decision. Reject: any other admin. Cancel: only the proposer.
 * The decision is one guarded UPDATE (still pending, not expired), under the tenant's staff lock, so of two
 * concurrent approvals exactly one applies. Audited as `admin:<decision>_change`, before → after.
 */
export async function decideAdminChange(
  actor: Actor,
  id: string,
  decision: AdminChangeDecision,
  raw: unknown = {},
): Promise<DecidedAdminChange> {
  assertCan(actor.roles, "admin:manage");
  if (!isUuid(id)) throw notFound();
  const input = parseForm(decidePolicyInput, raw ?? {});
  if (decision === "approve") await requireStepUp(actor, input.stepUpPassword);
  return transaction(async (tx) => {
    await lockTenantStaff(tx, actor.tenantId);
    const row = await tx.adminChange.findFirst({ where: { id, tenantId: actor.tenantId } });
    if (!row) throw notFound();
    if (row.status !== adminChangeStatus.pending) throw notPending();
    const now = new Date();
    if (row.expiresAt <= now)
      throw new AppError("expired", "This change expired without a second admin; propose it again.", {
        reason: "expired",
      });
    const own = row.proposedById === actor.userId;
    if (decision === "cancel" && !own)
      throw new AppError("permission_denied", "Only the admin who proposed a change can cancel it.", {
        reason: "not_proposer",
      });
    if (decision === "reject" && own)
      throw new AppError("permission_denied", "Cancel your own change instead of rejecting it.", {
        reason: "own_change",
      });
    if (decision === "approve")
      await assertIndependentApprover(tx, actor, { proposedById: row.proposedById, proposedAt: row.createdAt });

    const status =
      decision === "approve"
        ? adminChangeStatus.approved
        : decision === "reject"
          ? adminChangeStatus.rejected
          : adminChangeStatus.cancelled;
    const moved = await tx.adminChange.updateMany({
      where: { id, tenantId: actor.tenantId, status: adminChangeStatus.pending, expiresAt: { gt: now } },
      data: { status, decidedById: actor.userId, decidedAt: now },
    });
    if (moved.count !== 1) throw notPending();

    let result: DecidedAdminChange = { id, status };
    if (status === adminChangeStatus.approved) {
      // Both admins had a hand on a setup link: the proposer chose the account, the approver is shown the link.
      const both = [row.proposedById, actor.userId];
      if (row.kind === "invite_staff") {
        const { stepUpPassword: _, ...invitation } = inviteStaffInput.parse(row.payload);
        if (await tx.staffUser.findUnique({ where: { email: invitation.email }, select: { id: true } }))
          throw takenError("email", "This email now belongs to an account; reject this invitation.");
        const made = await createInvitedStaff(tx, actor, invitation, {
          invitedById: row.proposedById,
          issuedByIds: both,
          grantedByIds: both,
          change: id,
        });
        result = { ...result, staffId: made.id, setupUrl: made.setupUrl, expiresAt: made.expiresAt };
      } else if (row.kind === "setup_link") {
        const target = await readLinkTarget(tx, actor.tenantId, row.targetId!);
        const link = await applySetupLink(tx, actor, target, { issuedByIds: both, change: id });
        result = { ...result, setupUrl: link.setupUrl, expiresAt: link.expiresAt };
      } else if (row.kind === "confirmation_policy") {
        const payload = row.payload as { kinds: string[]; before: { kinds: string[] } };
        await applyApprovedConfirmationPolicy(tx, actor, payload, id);
      } else if (row.kind === "bulk_message_policy") {
        await applyApprovedBulkPolicy(tx, actor, row.payload as BulkPolicyChange, id);
      } else if (row.kind === "witness_policy") {
        const payload = row.payload as { change: WitnessPolicyChange; witnessId?: string; before: { quorum: number } };
        if (payload.change.op === "remove_witness") await applyWitnessRemoval(tx, actor, payload.witnessId!, id);
        else if (payload.change.op === "set_quorum")
          await applyApprovedQuorum(tx, actor, { change: payload.change, before: payload.before }, id);
      } else {
        const payload = row.payload as { patch: unknown; before: { roles: string[]; disabled: boolean } };
        const { stepUpPassword: _, ...patch } = updateStaffInput.parse(payload.patch);
        const target = await readStaff(tx, actor.tenantId, row.targetId!);
        // Like a stale policy change: the account changed since the proposal, so what was asked is not what would happen.
        if (
          [...target.roles].sort().join() !== payload.before.roles.join() ||
          target.disabled !== payload.before.disabled
        )
          throw new AppError(
            "permission_denied",
            "This account changed since the change was proposed; reject it and propose it again.",
            { reason: "stale" },
          );
        await applyStaffUpdate(tx, actor, target, patch, { grantedByIds: [row.proposedById], change: id });
      }
    }
    await recordAdminEvent(tx, actor, {
      action: `${decision}_change`,
      target: {
        kind: "admin_change",
        id,
        changeKind: row.kind,
        staff: row.targetId ?? result.staffId ?? null,
        proposedBy: row.proposedById,
      },
      before: { status: adminChangeStatus.pending, expiresAt: row.expiresAt.toISOString() },
      after: { status },
      clear: ["changeKind", "staff", "proposedBy"],
    });
    return result;
  });
}
