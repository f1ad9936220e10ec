// The second-admin rule (docs/design.md "Administration"): which staff changes are admin-level (they wait
// for a second admin) and which admin's approval counts. Pure: the use cases load the rows and decide here.

/** How long an admin-level change may wait for its second admin. */
export const ADMIN_CHANGE_DAYS = 7;

/** The states of a pending admin-level change (prisma enum AdminChangeStatus), spelled once. */
export const adminChangeStatus = {
  pending: "pending",
  approved: "approved",
  rejected: "rejected",
  cancelled: "cancelled",
  expired: "expired",
} as const;
export type AdminChangeStatus = (typeof adminChangeStatus)[keyof typeof adminChangeStatus];

export const adminChangeKinds = [
  "invite_staff",
  "update_staff",
  "setup_link",
  "witness_policy",
  "confirmation_policy",
  "bulk_message_policy",
] as const;
export type AdminChangeKind = (typeof adminChangeKinds)[number];

type StaffState = { roles: readonly string[]; disabled: boolean };
type StaffPatch = { roles?: readonly string[]; disabled?: boolean; unlock?: true; signOut?: true };

const isAdmin = (s: StaffState) => s.roles.includes("admin");

/**
 * Whether a staff change (PATCH /api/admin/staff/{id}) must wait for a second admin: it grants or removes
 * the admin role, disables or re-enables an admin, or unlocks an admin (a lockout is what stops password
 * guessing against that admin). Other changes apply at once.
 */
export function isAdminLevelUpdate(before: StaffState, patch: StaffPatch): boolean {
  if (patch.roles !== undefined && patch.roles.includes("admin") !== isAdmin(before)) return true;
  if (!isAdmin(before)) return false;
  if (patch.disabled !== undefined && patch.disabled !== before.disabled) return true;
  return patch.unlock === true;
}

/** Whether an invitation must wait: it creates an admin. */
export const isAdminLevelInvite = (roles: readonly string[]) => roles.includes("admin");

/** Whether a new setup link must wait: it lets whoever holds it set an (enabled) admin's password. */
export const isAdminLevelSetupLink = (target: StaffState) => isAdmin(target) && !target.disabled;

/** What the approving admin's account says about where it came from (StaffUser provenance columns). */
export type ApproverProvenance = {
  id: string;
  roles: readonly string[];
  disabled: boolean;
  invitedById: string | null;
  /** null: an admin since before provenance was tracked (seed, migration): held before any change. */
  adminSince: Date | null;
  adminGrantedByIds: readonly string[];
  credentialsResetByIds: readonly string[];
  /** When the last setup link was issued (who could set the password: credentialsResetByIds). */
  credentialsResetAt: Date | null;
  /** When the operator (npm run admin:grant) granted the current admin role; null: a tenant admin did, or nobody. */
  operatorGrantedAt: Date | null;
};

export type ApproverRefusal =
  | "own_change"
  | "not_admin"
  | "admin_after_proposal"
  | "invited_by_proposer"
  | "promoted_by_proposer"
  | "reset_by_proposer";

/**
 * Why an admin's approval of a change does not count, or null when it does. It counts only from an enabled
 * admin other than the proposer, who held the admin role before the change was proposed, and whom the
 * proposer did not invite, promote or reset the credentials of — otherwise one person could create
 * (or take over) the "second admin" they need.
 */
export function approverRefusal(
  approver: ApproverProvenance,
  change: { proposedById: string | null; proposedAt: Date },
): ApproverRefusal | null {
  const proposer = change.proposedById;
  if (proposer !== null && approver.id === proposer) return "own_change";
  if (approver.disabled || !approver.roles.includes("admin")) return "not_admin";
  if (approver.adminSince !== null && approver.adminSince.getTime() >= change.proposedAt.getTime())
    return "admin_after_proposal";
  if (proposer === null) return null;
  // An admin the operator granted is vouched for by the operator at that moment: who invited them, and who
  // issued a setup link before then, no longer matters. A link the proposer issued after the grant still does.
  const vouched = approver.operatorGrantedAt;
  if (vouched === null && approver.invitedById === proposer) return "invited_by_proposer";
  if (vouched === null && approver.adminGrantedByIds.includes(proposer)) return "promoted_by_proposer";
  if (
    approver.credentialsResetByIds.includes(proposer) &&
    (vouched === null || (approver.credentialsResetAt !== null && approver.credentialsResetAt > vouched))
  )
    return "reset_by_proposer";
  return null;
}

/** Who can approve: an admin whose approval of the change would count (approverRefusal null). */
export type PossibleApprover = { name: string; email: string };

/**
 * The sentence every refusal of the second-admin rule ends with: who can approve the change, or, when no
 * admin of the tenant can, the operator's way out (an admin the operator grants is independent).
 */
export function whoCanApprove(approvers: readonly PossibleApprover[], tenantSlug: string): string {
  if (approvers.length > 0) return `Who can approve it: ${approvers.map((a) => `${a.name} (${a.email})`).join(", ")}.`;
  return `No admin of this tenant can approve it. Ask your operator to grant admin to a colleague: npm run admin:grant -- --tenant ${tenantSlug} --email <their email> (an admin the operator grants counts as independent, even if you invited them).`;
}

/** The plain message of each refusal (API error message; the UI shows it as is). */
export const approverRefusalMessage: Record<ApproverRefusal, string> = {
  own_change: "Another admin must approve a change you proposed.",
  not_admin: "Only an active admin can approve this change.",
  admin_after_proposal:
    "Your admin role was granted after this change was proposed, so your approval does not count; another admin must approve it.",
  invited_by_proposer:
    "The admin who proposed this change invited your account, so your approval does not count; another admin must approve it.",
  promoted_by_proposer:
    "The admin who proposed this change made you an admin, so your approval does not count; another admin must approve it.",
  reset_by_proposer:
    "The admin who proposed this change reset your credentials, so your approval does not count; another admin must approve it.",
};

/** What a tenant with no independent second admin cannot do alone, and the operator command that helps (API refusal, admin page). */
export const singleAdminMessage = (tenantSlug: string) =>
  `No other admin can approve this: granting or removing the admin role, disabling, unlocking or resetting the sign-in of an admin, and loosening the policy each need a second, independent admin. ${whoCanApprove([], tenantSlug)}`;

export type AdminChangeWhat =
  | "invite_admin"
  | "grant_admin"
  | "remove_admin"
  | "disable_admin"
  | "enable_admin"
  | "unlock_admin"
  | "reset_admin"
  | "remove_witness"
  | "lower_witness_quorum"
  | "lower_customer_confirmation"
  | "loosen_bulk_message_policy";

// ---- The witness policy (docs/audit.md "Witnesses") ------------------------------------------------------

/** A change of a tenant's witness policy (the admin routes /api/admin/witnesses…, /api/admin/witness-policy). */
export type WitnessPolicyChange =
  { op: "add_witness" } | { op: "remove_witness"; name: string } | { op: "set_quorum"; quorum: number };

/**
 * Whether a witness-policy change loosens the policy and so waits for a second admin: removing a witness
 * (one fewer independent party whose refusal counts) or lowering the quorum. Adding a witness or raising the
 * quorum tightens it and applies at once — one admin alone can only make the log harder to fool.
 */
export function isWitnessPolicyLoosening(before: { quorum: number }, change: WitnessPolicyChange): boolean {
  if (change.op === "remove_witness") return true;
  if (change.op === "set_quorum") return change.quorum < before.quorum;
  return false;
}

/** Why a witness policy cannot be (quorum above the number of witnesses: no checkpoint could ever meet it); null when it can. */
export function witnessPolicyProblem(witnesses: number, quorum: number): string | null {
  return quorum > witnesses
    ? `A quorum of ${quorum} needs at least ${quorum} witnesses; this policy would have ${witnesses}.`
    : null;
}

/** What a pending change does, in words the admin page translates (an update may do several things). */
export function describeAdminChange(kind: AdminChangeKind, payload: unknown): AdminChangeWhat[] {
  if (kind === "invite_staff") return ["invite_admin"];
  if (kind === "setup_link") return ["reset_admin"];
  if (kind === "confirmation_policy") return ["lower_customer_confirmation"];
  if (kind === "bulk_message_policy") return ["loosen_bulk_message_policy"];
  if (kind === "witness_policy")
    return [
      (payload as { change: WitnessPolicyChange }).change.op === "remove_witness"
        ? "remove_witness"
        : "lower_witness_quorum",
    ];
  const { patch, before } = payload as { patch: StaffPatch; before: StaffState };
  const what: AdminChangeWhat[] = [];
  if (patch.roles !== undefined && patch.roles.includes("admin") !== isAdmin(before))
    what.push(isAdmin(before) ? "remove_admin" : "grant_admin");
  if (patch.disabled !== undefined && patch.disabled !== before.disabled && isAdmin(before))
    what.push(patch.disabled ? "disable_admin" : "enable_admin");
  if (patch.unlock && isAdmin(before)) what.push("unlock_admin");
  return what;
}

// ---- Who confirms (docs/action-kinds.md "Who confirms") --------------------------------------------------

/**
 * Whether a new list of kinds whose proposals also need the customer's confirmation loosens the tenant's policy and so
 * waits for a second admin: it drops a kind (one fewer party must confirm). Adding kinds tightens it and applies at
 * once.
 */
export function isConfirmationPolicyLoosening(before: readonly string[], after: readonly string[]): boolean {
  return before.some((k) => !after.includes(k));
}

// ---- The bulk-message policy (docs/admin-api.md "The bulk-message policy") ---------------------------------

/** The bulk-message policy's controls, in the order they are shown and audited. */
export const BULK_POLICY_CONTROLS = [
  "recipientsThreshold",
  "dailyRecipientsCap",
  "tolerancePercent",
  "windowStartHour",
  "windowEndHour",
  "timeZone",
] as const;

/** The bulk-message policy's controls, as in force (timeZone: the window's zone, the tenant's unless its own). */
export type BulkPolicyControls = {
  recipientsThreshold: number;
  dailyRecipientsCap: number | null;
  tolerancePercent: number;
  windowStartHour: number;
  windowEndHour: number;
  timeZone: string;
};

/**
 * Which controls a new bulk-message policy loosens (empty: it tightens or keeps each), so that the change waits for a
 * second admin: a higher two-reviewer threshold, a higher daily cap or none, a higher audience tolerance, a window that
 * opens earlier or closes later, or another time zone (the same hours fall at other times for the customers).
 */
export function bulkPolicyLoosens(before: BulkPolicyControls, after: BulkPolicyControls): string[] {
  const cap = (v: BulkPolicyControls) => v.dailyRecipientsCap ?? Number.POSITIVE_INFINITY;
  return [
    after.recipientsThreshold > before.recipientsThreshold ? "recipientsThreshold" : null,
    cap(after) > cap(before) ? "dailyRecipientsCap" : null,
    after.tolerancePercent > before.tolerancePercent ? "tolerancePercent" : null,
    after.windowStartHour < before.windowStartHour ? "windowStartHour" : null,
    after.windowEndHour > before.windowEndHour ? "windowEndHour" : null,
    after.timeZone !== before.timeZone ? "timeZone" : null,
  ].filter((k): k is string => k !== null);
}
