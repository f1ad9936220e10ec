// The second-admin rule cannot be satisfied by one admin (docs/admin-api.md "Changes that need a second
// admin"): granting admin by (a) an invitation, (b) a role change, and (c) resetting another admin's sign-in
// all wait for a second admin, and that admin's approval — of these and of a policy loosening — counts only
// if they held the role before the proposal and the proposer did not invite, promote or reset them.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import type { Actor } from "@/lib/server/auth/actor";
import { inviteStaff } from "@/lib/server/admin/invite-staff";
import { updateStaff } from "@/lib/server/admin/update-staff";
import { reissueSetupLink } from "@/lib/server/admin/reissue-setup-link";
import { completeSetup } from "@/lib/server/admin/complete-setup";
import { decideAdminChange } from "@/lib/server/admin/decide-admin-change";
import { listAdminChanges } from "@/lib/server/admin/list-admin-changes";
import { countPendingAdminChanges } from "@/lib/server/admin/count-pending-admin-changes";
import { grantAdminByOperator } from "@/lib/server/admin/grant-admin-by-operator";
import type { QueuedAdminChange } from "@/lib/server/admin/admin-change-store";
import { proposePolicyChange } from "@/lib/server/admin/policy/propose-policy-change";
import { decidePolicyChange } from "@/lib/server/admin/policy/decide-policy-change";
import { verifyCredentials } from "@/lib/server/auth/verify-credentials";
import { actorFor, staffOf } from "../support/actors";
import { refusal } from "../support/refusal";

const ES = "tienda-es";
const queued = async (p: Promise<unknown>) => {
  const r = (await p) as QueuedAdminChange;
  expect(r.status).toBe("awaiting_second_admin");
  return r.change.id;
};
const threshold = async () => (await db().tenant.findFirstOrThrow({ where: { slug: ES } })).dualApprovalThresholdMinor;
/** A loosening (the dual-approval threshold goes up): waits for a second admin. Returns its version. */
const loosen = async (actor: Actor) => {
  const r = await proposePolicyChange(actor, {
    values: { dualApprovalThresholdMinor: ((await threshold()) ?? 0) + 1_000 },
  });
  expect(r.status).toBe("awaiting_second_admin");
  return r.version;
};
const staffRow = (email: string) => db().staffUser.findUniqueOrThrow({ where: { email } });

let A: Actor; // the demo's only admin
let B: Actor; // the auditor, made admin by the operator
let R: Actor; // reviewer 0, promoted by A (attack b)
let R2: Actor; // reviewer 1, promoted by B
const refresh = async () => {
  A = await actorFor(staffOf(ES, "admin").email);
  B = await actorFor(staffOf(ES, "auditor").email);
  R = await actorFor(staffOf(ES, "reviewer", 0).email);
  R2 = await actorFor(staffOf(ES, "reviewer", 1).email);
};
beforeAll(refresh);

describe("a tenant with a single admin", () => {
  it("is told plainly what it cannot do alone; nothing is queued; the operator command is the way out (audited as operator)", async () => {
    expect((await listAdminChanges(A)).alone).toBe(true);
    const reviewerId = R.userId;
    // One at a time: each attempt starts only when the one before it was refused (started together, a refusal
    // nobody awaits yet is an unhandled rejection).
    for (const attempt of [
      () => updateStaff(A, reviewerId, { roles: ["admin", "reviewer"] }),
      () => inviteStaff(A, { email: "solo-admin@tienda-es.test", name: "Solo", roles: ["admin"] }),
      () => proposePolicyChange(A, { values: { dualApprovalThresholdMinor: 100_000 } }),
    ]) {
      const r = await refusal(attempt());
      expect(r).toMatchObject({ code: "permission_denied", reason: "no_second_admin" });
      expect(r.message).toContain("npm run admin:grant");
      expect(r.message).toContain("loosening the policy");
    }
    expect((await staffRow(R.email)).roles).toEqual(["reviewer"]);
    expect(await db().adminChange.count()).toBe(0);
    expect(await db().staffUser.count({ where: { email: "solo-admin@tienda-es.test" } })).toBe(0);

    expect(await refusal(grantAdminByOperator({ tenantSlug: "nope", email: B.email }))).toMatchObject({
      code: "not_found",
    });
    expect(
      await refusal(grantAdminByOperator({ tenantSlug: ES, email: staffOf("shop-us", "ops").email })),
    ).toMatchObject({ code: "not_found" });
    expect(await refusal(grantAdminByOperator({ tenantSlug: ES, email: A.email }))).toMatchObject({
      problem: "already_admin",
    });
    const granted = await grantAdminByOperator({ tenantSlug: ES, email: ` ${B.email.toUpperCase()} ` });
    expect(granted.roles).toEqual(["admin", "auditor"]);
    expect(await staffRow(B.email)).toMatchObject({ roles: ["admin", "auditor"], adminGrantedByIds: [] });
    const event = await db().auditEvent.findFirstOrThrow({ where: { action: "admin:operator_grant_admin" } });
    expect(event).toMatchObject({ actorType: "system", actorId: "operator", tenantId: A.tenantId });
    expect(event.data).toMatchObject({ before: { roles: ["auditor"] }, after: { roles: ["admin", "auditor"] } });
    await refresh();
    expect((await listAdminChanges(A)).alone).toBe(false);
  });
});

describe("(b) promoting an existing reviewer", () => {
  it("waits; the proposer cannot approve; once approved, the promoted admin cannot approve the proposer's loosening", async () => {
    const change = await queued(updateStaff(A, R.userId, { roles: ["admin", "reviewer"] }));
    expect((await staffRow(R.email)).roles).toEqual(["reviewer"]); // nothing took effect
    expect(await refusal(decideAdminChange(A, change, "approve"))).toMatchObject({
      code: "permission_denied",
      reason: "own_change",
    });
    expect(await refusal(updateStaff(A, R.userId, { roles: ["admin", "ops", "reviewer"] }))).toMatchObject({
      reason: "change_pending",
    });
    expect(await refusal(decideAdminChange(R, change, "approve"))).toMatchObject({ code: "permission_denied" }); // not an admin

    expect(await decideAdminChange(B, change, "approve")).toMatchObject({ id: change, status: "approved" });
    expect(await staffRow(R.email)).toMatchObject({ roles: ["admin", "reviewer"], adminGrantedByIds: [A.userId] });
    const events = await db().auditEvent.findMany({
      where: {
        tenantId: A.tenantId,
        action: { in: ["admin:propose_change", "admin:update_staff", "admin:approve_change"] },
      },
      orderBy: { pos: "asc" },
    });
    expect(events.map((e) => [e.action, e.actorId])).toEqual([
      ["admin:propose_change", A.userId],
      ["admin:update_staff", B.userId],
      ["admin:approve_change", B.userId],
    ]);
    expect(events[0]!.data).toMatchObject({
      target: { change, changeKind: "update_staff" },
      before: { roles: ["reviewer"] },
      after: { status: "awaiting_second_admin" },
    });
    expect(events[1]!.data).toMatchObject({
      target: { change },
      before: { roles: ["reviewer"] },
      after: { roles: ["admin", "reviewer"] },
    });
    expect(events[2]!.data).toMatchObject({
      before: { status: "pending" },
      after: { status: "approved" },
      target: { proposedBy: A.userId },
    });

    await refresh();
    const before = await threshold();
    const version = await loosen(A);
    expect(await refusal(decidePolicyChange(R, version, "approve"))).toMatchObject({
      code: "permission_denied",
      reason: "promoted_by_proposer",
    });
    expect(await threshold()).toBe(before);
    await decidePolicyChange(B, version, "reject");
  });

  it("an admin whose role started after the proposal does not count either", async () => {
    const version = await loosen(A);
    const change = await queued(updateStaff(B, R2.userId, { roles: ["admin", "reviewer"] }));
    await decideAdminChange(A, change, "approve"); // A is independent of B
    await refresh();
    expect(await refusal(decidePolicyChange(R2, version, "approve"))).toMatchObject({ reason: "admin_after_proposal" });
    await decidePolicyChange(B, version, "reject");
  });
});

describe("(a) inviting a new admin", () => {
  it("creates nothing until approved; the approver gets the link; the invited admin cannot approve the inviter's loosening", async () => {
    const email = "nuevo.admin@tienda-es.test";
    const change = await queued(inviteStaff(A, { email, name: "Nuevo Admin", roles: ["admin"] }));
    expect(await db().staffUser.count({ where: { email } })).toBe(0);
    expect(await refusal(decideAdminChange(A, change, "approve"))).toMatchObject({ reason: "own_change" });
    // R was promoted by A: not independent of A for this either.
    expect(await refusal(decideAdminChange(R, change, "approve"))).toMatchObject({ reason: "promoted_by_proposer" });
    const approved = await decideAdminChange(B, change, "approve");
    expect(approved.setupUrl).toMatch(/\/setup\//);
    expect(await staffRow(email)).toMatchObject({
      roles: ["admin"],
      invitedById: A.userId,
      adminGrantedByIds: [A.userId, B.userId],
    });
    await completeSetup({ token: approved.setupUrl!.split("/setup/")[1], password: "nuevo-admin-password-2026" });
    const invited = await actorFor(email);

    const version = await loosen(A);
    expect(await refusal(decidePolicyChange(invited, version, "approve"))).toMatchObject({
      reason: "invited_by_proposer",
    });
    await decidePolicyChange(B, version, "reject");
  });
});

describe("(c) resetting another admin's sign-in", () => {
  it("waits (no link, the password keeps working); once approved, the reset admin cannot approve the proposer's loosening; an independent admin can", async () => {
    const links = () => db().staffSetupToken.count({ where: { staffUserId: B.userId } });
    const linksBefore = await links();
    const change = await queued(reissueSetupLink(A, B.userId));
    expect(await links()).toBe(linksBefore);
    expect((await verifyCredentials(B.email, staffOf(ES, "auditor").password)).ok).toBe(true);
    expect(await refusal(decideAdminChange(A, change, "approve"))).toMatchObject({ reason: "own_change" });

    const approved = await decideAdminChange(R2, change, "approve"); // R2 was promoted by B, not by A
    expect(approved.setupUrl).toMatch(/\/setup\//);
    expect(await links()).toBe(linksBefore + 1);
    expect((await staffRow(B.email)).credentialsResetByIds).toEqual([A.userId, R2.userId]);

    const before = await threshold();
    const version = await loosen(A);
    expect(await refusal(decidePolicyChange(B, version, "approve"))).toMatchObject({
      code: "permission_denied",
      reason: "reset_by_proposer",
    });
    expect(await threshold()).toBe(before);
    expect(await decidePolicyChange(R2, version, "approve")).toMatchObject({ status: "active" });
    expect(await threshold()).not.toBe(before);
  });
});

describe("deciding pending admin changes", () => {
  it("two concurrent approvals: exactly one applies, one audit event", async () => {
    const target = await db().staffUser.findUniqueOrThrow({ where: { email: "nuevo.admin@tienda-es.test" } });
    await db().staffUser.update({
      where: { id: target.id },
      data: { lockedUntil: new Date(Date.now() + 3600_000), failedLoginCount: 9 },
    });
    const change = await queued(updateStaff(R, target.id, { unlock: true }));
    expect((await staffRow(target.email)).failedLoginCount).toBe(9);
    const results = await Promise.allSettled([A, B, R2].map((who) => decideAdminChange(who, change, "approve")));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.filter((r) => r.status === "rejected").map((r) => r.reason.details.reason)).toEqual([
      "not_pending",
      "not_pending",
    ]);
    expect(await staffRow(target.email)).toMatchObject({ failedLoginCount: 0, lockedUntil: null });
    expect(
      await db().auditEvent.count({
        where: { action: "admin:approve_change", data: { path: ["target", "id"], equals: change } },
      }),
    ).toBe(1);
  });

  it("cancel (proposer only), reject (another admin), expiry after its lifetime, and a stale change", async () => {
    const c1 = await queued(updateStaff(R, R2.userId, { roles: ["reviewer"] }));
    expect(await refusal(decideAdminChange(A, c1, "cancel"))).toMatchObject({ reason: "not_proposer" });
    expect(await refusal(decideAdminChange(R, c1, "reject"))).toMatchObject({ reason: "own_change" });
    expect(await decideAdminChange(R, c1, "cancel")).toMatchObject({ status: "cancelled" });
    expect(await refusal(decideAdminChange(A, c1, "approve"))).toMatchObject({ reason: "not_pending" });

    const c2 = await queued(updateStaff(R, R2.userId, { roles: ["reviewer"] }));
    await db().adminChange.update({ where: { id: c2 }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect(await refusal(decideAdminChange(A, c2, "approve"))).toMatchObject({ code: "expired", reason: "expired" });
    expect((await listAdminChanges(A)).pending.map((p) => p.id)).not.toContain(c2);
    const c3 = await queued(updateStaff(R, R2.userId, { roles: ["reviewer"] })); // the expired one no longer blocks
    expect((await db().adminChange.findUniqueOrThrow({ where: { id: c2 } })).status).toBe("expired");
    expect((await listAdminChanges(A)).pending.find((p) => p.id === c3)).toMatchObject({
      what: ["remove_admin"],
      mine: false,
      approvalRefusal: null,
    });

    // The account changed since the proposal: approving is refused, the change stays pending, reject it.
    await db().staffUser.update({ where: { id: R2.userId }, data: { roles: ["admin", "ops", "reviewer"] } });
    expect(await refusal(decideAdminChange(A, c3, "approve"))).toMatchObject({ reason: "stale" });
    expect(await decideAdminChange(A, c3, "reject")).toMatchObject({ status: "rejected" });
    expect((await staffRow(R2.email)).roles).toEqual(["admin", "ops", "reviewer"]);
  });

  it("counts what waits for a given admin (for an inbox): not their own, only where their approval counts", async () => {
    const ops = await actorFor(staffOf(ES, "ops").email);
    const change = await queued(updateStaff(R, ops.userId, { roles: ["admin", "ops"] }));
    expect(await countPendingAdminChanges({ tenantId: A.tenantId, staffUserId: A.userId })).toBe(1);
    expect(await countPendingAdminChanges({ tenantId: A.tenantId, staffUserId: R.userId })).toBe(0);
    expect(await countPendingAdminChanges({ tenantId: A.tenantId, staffUserId: ops.userId })).toBe(0);
    const version = await loosen(A);
    expect(await countPendingAdminChanges({ tenantId: A.tenantId, staffUserId: B.userId })).toBe(1); // B was reset by A
    expect(await countPendingAdminChanges({ tenantId: A.tenantId, staffUserId: R2.userId })).toBe(2);
    await decideAdminChange(R, change, "cancel");
    await decidePolicyChange(R2, version, "reject");
    expect(await countPendingAdminChanges({ tenantId: A.tenantId, staffUserId: R2.userId })).toBe(0);
  });
});
