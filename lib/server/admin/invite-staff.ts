import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import { takenError } from "@/lib/domain/validation";
import { isAdminLevelInvite } from "@/lib/domain/admin-governance";
import { inviteStaffInput, type InviteStaffInput } from "@/lib/schemas/admin";
import type { Actor } from "@/lib/server/auth/actor";
import { requireStepUp } from "@/lib/server/auth/require-step-up";
import type { Tx } from "@/lib/server/db/client";
import { transactionUnlessTaken } from "@/lib/server/db/unique-violation";
import { recordAdminEvent } from "./admin-audit";
import { lockTenantStaff, queueAdminChange, type QueuedAdminChange } from "./admin-change-store";
import { issueSetupToken } from "./setup-token";
import { parseForm } from "./zod-problem";

export type Invitation = Omit<InviteStaffInput, "stepUpPassword">;
export type InvitedStaff = { id: string; setupUrl: string; expiresAt: Date };

const taken = () => takenError("email", "This email cannot be invited: it already belongs to an account.");

/**
 * Invites a person to the admin's tenant: a staff row without a password and a one-time setup link
 * (24 h, single use, stored as a hash) that is returned once, to be shown to the admin. The person
 * sets a password through the link (app/(auth)/setup). Audited as `admin:invite_staff`.
 *
 * An invitation with the admin role creates nothing yet: it waits for a second admin, whose approval
 * creates the account and shows the setup link to that approving admin (decideAdminChange).
 */
export async function inviteStaff(actor: Actor, raw: unknown): Promise<InvitedStaff | QueuedAdminChange> {
  assertCan(actor.roles, "admin:manage");
  const { stepUpPassword, ...invitation } = parseForm(inviteStaffInput, raw);
  await requireStepUp(actor, stepUpPassword);
  // The email is the sign-in name, unique across tenants. The message does not say which tenant has it.
  return transactionUnlessTaken(async (tx) => {
    if (!isAdminLevelInvite(invitation.roles))
      return createInvitedStaff(tx, actor, invitation, { issuedByIds: [actor.userId] });
    await lockTenantStaff(tx, actor.tenantId);
    if (await tx.staffUser.findUnique({ where: { email: invitation.email }, select: { id: true } })) throw taken();
    return queueAdminChange(tx, actor, {
      kind: "invite_staff",
      targetId: null,
      payload: invitation,
      target: { kind: "staff", email: invitation.email },
    });
  }, taken);
}

/**
 * Creates the invited account and its setup link in the caller's transaction, audited. `invitedById` is
 * who asked for it; `issuedByIds` who could have held the link (the inviter; for an approved admin
 * invitation also the approving admin, who is shown it); an admin role starts now, granted by `grantedByIds`.
 */
export async function createInvitedStaff(
  tx: Tx,
  actor: Actor,
  invitation: Invitation,
  opts: { invitedById?: string; issuedByIds: string[]; grantedByIds?: string[]; change?: string },
): Promise<InvitedStaff> {
  const now = new Date();
  const admin = invitation.roles.includes("admin");
  const user = await tx.staffUser.create({
    data: {
      tenantId: actor.tenantId,
      email: invitation.email,
      name: invitation.name,
      roles: invitation.roles,
      invitedById: opts.invitedById ?? actor.userId,
      credentialsResetByIds: opts.issuedByIds,
      credentialsResetAt: now,
      ...(admin ? { adminSince: now, adminGrantedByIds: opts.grantedByIds ?? opts.issuedByIds } : {}),
    },
  });
  const link = await issueSetupToken(tx, {
    tenantId: actor.tenantId,
    staffUserId: user.id,
    createdById: actor.userId,
    now,
  });
  await recordAdminEvent(tx, actor, {
    action: "invite_staff",
    target: { kind: "staff", id: user.id, email: invitation.email, ...(opts.change ? { change: opts.change } : {}) },
    after: { roles: invitation.roles, disabled: false, expiresAt: link.expiresAt.toISOString() },
    clear: ["change"],
  });
  return { id: user.id, setupUrl: link.setupUrl, expiresAt: link.expiresAt };
}
