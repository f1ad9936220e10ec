import { describe, expect, it } from "vitest";
import {
  approverRefusal,
  bulkPolicyLoosens,
  describeAdminChange,
  isAdminLevelInvite,
  isAdminLevelSetupLink,
  isAdminLevelUpdate,
  isWitnessPolicyLoosening,
  whoCanApprove,
  witnessPolicyProblem,
  type ApproverProvenance,
} from "./admin-governance";

const A = "00000000-0000-4000-8000-00000000000a";
const B = "00000000-0000-4000-8000-00000000000b";
const C = "00000000-0000-4000-8000-00000000000c";
const at = new Date("2026-12-01T10:00:00Z");
const admin = (over: Partial<ApproverProvenance> = {}): ApproverProvenance => ({
  id: B,
  roles: ["admin"],
  disabled: false,
  invitedById: null,
  adminSince: null,
  adminGrantedByIds: [],
  credentialsResetByIds: [],
  credentialsResetAt: null,
  operatorGrantedAt: null,
  ...over,
});

describe("which staff changes wait for a second admin", () => {
  const reviewer = { roles: ["reviewer"], disabled: false };
  const anAdmin = { roles: ["admin", "ops"], disabled: false };
  it("granting or removing admin, disabling / enabling / unlocking an admin; nothing else", () => {
    expect(isAdminLevelUpdate(reviewer, { roles: ["admin", "reviewer"] })).toBe(true);
    expect(isAdminLevelUpdate(anAdmin, { roles: ["ops"] })).toBe(true);
    expect(isAdminLevelUpdate(anAdmin, { disabled: true })).toBe(true);
    expect(isAdminLevelUpdate({ ...anAdmin, disabled: true }, { disabled: false })).toBe(true);
    expect(isAdminLevelUpdate(anAdmin, { unlock: true })).toBe(true);
    // Not admin-level: other roles of an admin, sign-out, a no-op disable, anything about a non-admin.
    expect(isAdminLevelUpdate(anAdmin, { roles: ["admin"] })).toBe(false);
    expect(isAdminLevelUpdate(anAdmin, { signOut: true })).toBe(false);
    expect(isAdminLevelUpdate(anAdmin, { disabled: false })).toBe(false);
    expect(isAdminLevelUpdate(reviewer, { roles: ["ops"], disabled: true, unlock: true })).toBe(false);
    expect(isAdminLevelInvite(["admin"])).toBe(true);
    expect(isAdminLevelInvite(["ops", "reviewer"])).toBe(false);
    expect(isAdminLevelSetupLink(anAdmin)).toBe(true);
    expect(isAdminLevelSetupLink(reviewer)).toBe(false);
  });

  it("describes a change in the words the admin page shows", () => {
    expect(describeAdminChange("invite_staff", {})).toEqual(["invite_admin"]);
    expect(describeAdminChange("setup_link", {})).toEqual(["reset_admin"]);
    expect(
      describeAdminChange("update_staff", { patch: { roles: ["admin"] }, before: { roles: ["ops"], disabled: false } }),
    ).toEqual(["grant_admin"]);
    expect(
      describeAdminChange("update_staff", {
        patch: { roles: ["ops"], unlock: true },
        before: { roles: ["admin"], disabled: false },
      }),
    ).toEqual(["remove_admin", "unlock_admin"]);
    expect(
      describeAdminChange("update_staff", { patch: { disabled: true }, before: { roles: ["admin"], disabled: false } }),
    ).toEqual(["disable_admin"]);
  });
});

describe("whose approval counts", () => {
  const change = { proposedById: A, proposedAt: at };
  it("an independent admin from before the proposal counts (also an admin from before tracking)", () => {
    expect(approverRefusal(admin(), change)).toBeNull();
    expect(
      approverRefusal(
        admin({
          adminSince: new Date(at.getTime() - 1),
          adminGrantedByIds: [C],
          invitedById: C,
          credentialsResetByIds: [C],
        }),
        change,
      ),
    ).toBeNull();
  });
  it("refuses the proposer, a non-admin, a disabled admin", () => {
    expect(approverRefusal(admin({ id: A }), change)).toBe("own_change");
    expect(approverRefusal(admin({ roles: ["reviewer"] }), change)).toBe("not_admin");
    expect(approverRefusal(admin({ disabled: true }), change)).toBe("not_admin");
  });
  it("refuses an admin whose role started at or after the proposal (exactly at it too)", () => {
    expect(approverRefusal(admin({ adminSince: at }), change)).toBe("admin_after_proposal");
    expect(approverRefusal(admin({ adminSince: new Date(at.getTime() + 1) }), change)).toBe("admin_after_proposal");
  });
  it("refuses an admin the proposer invited, promoted or reset", () => {
    expect(approverRefusal(admin({ invitedById: A }), change)).toBe("invited_by_proposer");
    expect(approverRefusal(admin({ adminGrantedByIds: [C, A] }), change)).toBe("promoted_by_proposer");
    expect(approverRefusal(admin({ credentialsResetByIds: [A] }), change)).toBe("reset_by_proposer");
  });
  it("counts an admin the operator granted, though the proposer invited them and issued their first link", () => {
    const before = new Date(at.getTime() - 60_000);
    const granted = new Date(at.getTime() - 1_000);
    const invited = { invitedById: A, credentialsResetByIds: [A], credentialsResetAt: before, adminSince: granted };
    expect(approverRefusal(admin(invited), change)).toBe("invited_by_proposer");
    expect(approverRefusal(admin({ ...invited, operatorGrantedAt: granted }), change)).toBeNull();
    // A link the proposer issued after the operator's grant: the proposer could hold the password now.
    const relinked = { ...invited, operatorGrantedAt: granted, credentialsResetAt: new Date(granted.getTime() + 1) };
    expect(approverRefusal(admin(relinked), change)).toBe("reset_by_proposer");
    // The operator's grant is still an admin role that starts then: not for a change proposed before it.
    expect(approverRefusal(admin({ ...invited, adminSince: at, operatorGrantedAt: at }), change)).toBe(
      "admin_after_proposal",
    );
  });
  it("every refusal says who can approve, or the operator's command for this tenant", () => {
    expect(whoCanApprove([{ name: "Bea", email: "bea@x.example" }], "acme")).toBe(
      "Who can approve it: Bea (bea@x.example).",
    );
    expect(whoCanApprove([], "acme")).toContain("npm run admin:grant -- --tenant acme --email");
  });
});

describe("the witness policy: what loosens it", () => {
  it("removing a witness or lowering the quorum loosens; adding, raising or keeping it does not (the boundary: the same quorum)", () => {
    expect(isWitnessPolicyLoosening({ quorum: 2 }, { op: "remove_witness", name: "w" })).toBe(true);
    expect(isWitnessPolicyLoosening({ quorum: 2 }, { op: "set_quorum", quorum: 1 })).toBe(true);
    expect(isWitnessPolicyLoosening({ quorum: 2 }, { op: "set_quorum", quorum: 2 })).toBe(false);
    expect(isWitnessPolicyLoosening({ quorum: 2 }, { op: "set_quorum", quorum: 3 })).toBe(false);
    expect(isWitnessPolicyLoosening({ quorum: 2 }, { op: "add_witness" })).toBe(false);
  });
  it("a quorum above the number of witnesses cannot be met; equal can", () => {
    expect(witnessPolicyProblem(2, 2)).toBeNull();
    expect(witnessPolicyProblem(2, 3)).toBe("A quorum of 3 needs at least 3 witnesses; this policy would have 2.");
  });
  it("describes a pending witness-policy change", () => {
    expect(describeAdminChange("witness_policy", { change: { op: "remove_witness", name: "w" } })).toEqual([
      "remove_witness",
    ]);
    expect(describeAdminChange("witness_policy", { change: { op: "set_quorum", quorum: 1 } })).toEqual([
      "lower_witness_quorum",
    ]);
  });
});

describe("the bulk-message policy: what loosens it (a second admin decides) and what does not", () => {
  const base = {
    recipientsThreshold: 100,
    dailyRecipientsCap: 5_000 as number | null,
    tolerancePercent: 0,
    windowStartHour: 9,
    windowEndHour: 20,
    timeZone: "Europe/Madrid",
  };
  it("the same values, or tighter ones, loosen nothing", () => {
    expect(bulkPolicyLoosens(base, { ...base })).toEqual([]);
    expect(
      bulkPolicyLoosens(base, {
        ...base,
        recipientsThreshold: 99,
        dailyRecipientsCap: 4_999,
        windowStartHour: 10,
        windowEndHour: 19,
      }),
    ).toEqual([]);
    expect(bulkPolicyLoosens({ ...base, dailyRecipientsCap: null }, { ...base, dailyRecipientsCap: 1 })).toEqual([]);
    expect(bulkPolicyLoosens({ ...base, dailyRecipientsCap: null }, { ...base, dailyRecipientsCap: null })).toEqual([]);
    expect(bulkPolicyLoosens({ ...base, tolerancePercent: 5 }, base)).toEqual([]);
  });
  it("each control one step looser is named, at its boundary", () => {
    expect(bulkPolicyLoosens(base, { ...base, recipientsThreshold: 101 })).toEqual(["recipientsThreshold"]);
    expect(bulkPolicyLoosens(base, { ...base, dailyRecipientsCap: 5_001 })).toEqual(["dailyRecipientsCap"]);
    expect(bulkPolicyLoosens(base, { ...base, dailyRecipientsCap: null })).toEqual(["dailyRecipientsCap"]);
    expect(bulkPolicyLoosens(base, { ...base, tolerancePercent: 1 })).toEqual(["tolerancePercent"]);
    expect(bulkPolicyLoosens(base, { ...base, windowStartHour: 8 })).toEqual(["windowStartHour"]);
    expect(bulkPolicyLoosens(base, { ...base, windowEndHour: 21 })).toEqual(["windowEndHour"]);
    expect(bulkPolicyLoosens(base, { ...base, timeZone: "Atlantic/Canary" })).toEqual(["timeZone"]);
  });
  it("a change that tightens one control and loosens another still loosens", () => {
    expect(bulkPolicyLoosens(base, { ...base, recipientsThreshold: 10, tolerancePercent: 3 })).toEqual([
      "tolerancePercent",
    ]);
  });
  it("a waiting change is described for the admin page", () => {
    expect(describeAdminChange("bulk_message_policy", {})).toEqual(["loosen_bulk_message_policy"]);
  });
});
