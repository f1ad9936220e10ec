// Staff lifecycle: invite → one-time setup link → password; roles, disable, unlock, sign out
// everywhere; the last-admin and own-roles rules; step-up; every change audited with before → after.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { inviteStaff, type InvitedStaff } from "@/lib/server/admin/invite-staff";
import { updateStaff, type AppliedStaffUpdate } from "@/lib/server/admin/update-staff";
import { completeSetup, getSetupInvitation } from "@/lib/server/admin/complete-setup";
import { reissueSetupLink, type SetupLink } from "@/lib/server/admin/reissue-setup-link";
import { decideAdminChange } from "@/lib/server/admin/decide-admin-change";
import type { QueuedAdminChange } from "@/lib/server/admin/admin-change-store";
import { listStaff } from "@/lib/server/admin/list-staff";
import { hashSetupToken } from "@/lib/server/admin/setup-token";
import { verifyCredentials } from "@/lib/server/auth/verify-credentials";
import { actorFor, staffOf } from "../support/actors";
import { refusal } from "../support/refusal";

const ES = "tienda-es";
const US = "shop-us";
const adminOf = (slug: string, opts?: { authAgoSeconds?: number }) => actorFor(staffOf(slug, "admin").email, opts);

const tokenOf = (setupUrl: string) => setupUrl.split("/setup/")[1]!;
let n = 0;
const newEmail = () => `invitee${++n}.${Date.now()}@tienda-es.test`;
// Invitations and links without the admin role apply at once (with it they wait: admin-governance.test.ts).
const invite = async (...args: Parameters<typeof inviteStaff>): Promise<InvitedStaff> =>
  (await inviteStaff(...args)) as InvitedStaff;

describe("inviting staff and the one-time setup link", () => {
  it("invite → link shown once, stored only as a hash, 24 h → the person sets a password and signs in; the link then is spent", async () => {
    const admin = await adminOf(ES);
    const email = newEmail();
    const invited = await invite(admin, {
      email: `  ${email.toUpperCase()} `,
      name: "Nuevo Revisor",
      roles: ["reviewer", "reviewer"],
    });
    expect(invited.setupUrl).toMatch(/\/setup\/[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(invited.setupUrl);
    const user = await db().staffUser.findUniqueOrThrow({ where: { id: invited.id } });
    expect(user).toMatchObject({
      tenantId: admin.tenantId,
      email,
      roles: ["reviewer"],
      passwordHash: null,
      disabled: false,
    });
    const stored = await db().staffSetupToken.findFirstOrThrow({ where: { staffUserId: invited.id } });
    expect(stored.tokenHash).toBe(hashSetupToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);
    const hours = (stored.expiresAt.getTime() - stored.createdAt.getTime()) / 3600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24.01);
    expect(await getSetupInvitation(token)).toMatchObject({ email, name: "Nuevo Revisor" });

    // No password yet: cannot sign in.
    expect((await verifyCredentials(email, "whatever-password-1")).ok).toBe(false);
    expect(await refusal(completeSetup({ token, password: "short" }))).toMatchObject({ code: "invalid_arguments" });
    await completeSetup({ token, password: "a-long-enough-password" });
    const check = await verifyCredentials(email, "a-long-enough-password");
    expect(check.ok).toBe(true);

    // Single use.
    expect(await getSetupInvitation(token)).toBeNull();
    expect(await refusal(completeSetup({ token, password: "another-long-password" }))).toMatchObject({
      code: "expired",
      reason: "invalid_link",
    });
    expect((await verifyCredentials(email, "a-long-enough-password")).ok).toBe(true);

    const events = await db().auditEvent.findMany({
      where: { tenantId: admin.tenantId, action: { in: ["admin:invite_staff", "auth:complete_setup"] } },
      orderBy: { pos: "asc" },
    });
    expect(events.map((e) => e.action)).toEqual(["admin:invite_staff", "auth:complete_setup"]);
    expect(events[0]).toMatchObject({ actorId: admin.userId, outcome: "ok" });
    expect(events[0]!.data).toMatchObject({
      target: { kind: "staff", id: invited.id },
      after: { roles: ["reviewer"], disabled: false },
    });
    const trail = JSON.stringify(events);
    expect(trail).not.toContain(token);
    expect(trail).not.toContain(email); // fingerprinted
  });

  it("two parallel uses of one link: exactly one wins", async () => {
    const admin = await adminOf(ES);
    const { setupUrl, id } = await invite(admin, { email: newEmail(), name: "Race", roles: ["ops"] });
    const token = tokenOf(setupUrl);
    const results = await Promise.allSettled([
      completeSetup({ token, password: "first-password-123" }),
      completeSetup({ token, password: "second-password-123" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const events = await db().auditEvent.count({ where: { action: "auth:complete_setup", actorId: id } });
    expect(events).toBe(1);
  });

  it("an expired link, a reissued (older) link and a disabled person's link do not work", async () => {
    const admin = await adminOf(ES);
    const a = await invite(admin, { email: newEmail(), name: "Expired", roles: ["ops"] });
    await db().staffSetupToken.updateMany({
      where: { staffUserId: a.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await getSetupInvitation(tokenOf(a.setupUrl))).toBeNull();
    expect(
      await refusal(completeSetup({ token: tokenOf(a.setupUrl), password: "a-long-enough-password" })),
    ).toMatchObject({ code: "expired" });

    const b = await invite(admin, { email: newEmail(), name: "Reissued", roles: ["ops"] });
    const again = (await reissueSetupLink(admin, b.id)) as SetupLink;
    expect(
      await refusal(completeSetup({ token: tokenOf(b.setupUrl), password: "a-long-enough-password" })),
    ).toMatchObject({ code: "expired" });
    const c = await invite(admin, { email: newEmail(), name: "Disabled", roles: ["ops"] });
    await updateStaff(admin, c.id, { disabled: true });
    expect(
      await refusal(completeSetup({ token: tokenOf(c.setupUrl), password: "a-long-enough-password" })),
    ).toMatchObject({ code: "expired" });
    await completeSetup({ token: tokenOf(again.setupUrl), password: "a-long-enough-password" });
    expect(await refusal(completeSetup({ token: "x".repeat(43), password: "a-long-enough-password" }))).toMatchObject({
      code: "expired",
    });
  });

  it("refuses a taken email (any tenant), bad input, and non-admins", async () => {
    const admin = await adminOf(ES);
    expect(
      await refusal(inviteStaff(admin, { email: staffOf(US, "ops").email, name: "Dup", roles: ["ops"] })),
    ).toMatchObject({
      code: "invalid_arguments",
      problem: "taken",
    });
    expect(await refusal(inviteStaff(admin, { email: "not-an-email", name: "X", roles: ["ops"] }))).toMatchObject({
      code: "invalid_arguments",
    });
    expect(await refusal(inviteStaff(admin, { email: newEmail(), name: "X", roles: [] }))).toMatchObject({
      code: "invalid_arguments",
    });
    expect(await refusal(inviteStaff(admin, { email: newEmail(), name: "X", roles: ["root"] }))).toMatchObject({
      code: "invalid_arguments",
    });
    expect(
      await refusal(inviteStaff(admin, { email: newEmail(), name: "X", roles: ["ops"], tenantId: "x" })),
    ).toMatchObject({ code: "invalid_arguments" });
    for (const role of ["ops", "reviewer", "auditor"] as const) {
      const other = await actorFor(staffOf(ES, role).email);
      expect(await refusal(inviteStaff(other, { email: newEmail(), name: "X", roles: ["ops"] }))).toMatchObject({
        code: "permission_denied",
      });
    }
  });

  it("step-up: an old sign-in must re-enter the password; a wrong one counts toward the lockout", async () => {
    const stale = await adminOf(ES, { authAgoSeconds: 3600 });
    expect(await refusal(inviteStaff(stale, { email: newEmail(), name: "X", roles: ["ops"] }))).toMatchObject({
      code: "permission_denied",
      reason: "step_up_required",
    });
    expect(
      await refusal(inviteStaff(stale, { email: newEmail(), name: "X", roles: ["ops"], stepUpPassword: "wrong" })),
    ).toMatchObject({
      reason: "step_up_failed",
    });
    expect((await db().staffUser.findUniqueOrThrow({ where: { id: stale.userId } })).failedLoginCount).toBe(1);
    const ok = await invite(stale, {
      email: newEmail(),
      name: "X",
      roles: ["ops"],
      stepUpPassword: staffOf(ES, "admin").password,
    });
    expect(ok.id).toBeTruthy();
    await db().staffUser.update({ where: { id: stale.userId }, data: { failedLoginCount: 0 } });
  });
});

describe("changing staff", () => {
  it("role change, disable (sessions end), enable, unlock and sign out everywhere — each audited before → after", async () => {
    const admin = await adminOf(US);
    const target = await db().staffUser.findUniqueOrThrow({ where: { email: staffOf(US, "reviewer", 1).email } });

    const r1 = (await updateStaff(admin, target.id, { roles: ["reviewer", "ops"] })) as AppliedStaffUpdate;
    expect(r1.before.roles).toEqual(["reviewer"]);
    expect(r1.after).toMatchObject({ roles: ["ops", "reviewer"], sessionVersion: target.sessionVersion + 1 });

    const r2 = (await updateStaff(admin, target.id, { disabled: true })) as AppliedStaffUpdate;
    expect(r2.after).toMatchObject({ disabled: true, sessionVersion: target.sessionVersion + 2 });
    expect((await verifyCredentials(target.email, staffOf(US, "reviewer", 1).password)).ok).toBe(false);
    await updateStaff(admin, target.id, { disabled: false });
    expect((await verifyCredentials(target.email, staffOf(US, "reviewer", 1).password)).ok).toBe(true);

    await db().staffUser.update({
      where: { id: target.id },
      data: { failedLoginCount: 7, lockedUntil: new Date(Date.now() + 3600_000) },
    });
    expect((await listStaff(admin, { q: "sam" })).find((s) => s.id === target.id)?.lockedUntil).toBeTruthy();
    const r4 = await updateStaff(admin, target.id, { unlock: true });
    expect(r4).toMatchObject({ before: { locked: true }, after: { locked: false } });
    expect(await db().staffUser.findUniqueOrThrow({ where: { id: target.id } })).toMatchObject({
      failedLoginCount: 0,
      lockedUntil: null,
    });

    const before = (await db().staffUser.findUniqueOrThrow({ where: { id: target.id } })).sessionVersion;
    await updateStaff(admin, target.id, { signOut: true });
    expect((await db().staffUser.findUniqueOrThrow({ where: { id: target.id } })).sessionVersion).toBe(before + 1);

    const events = await db().auditEvent.findMany({
      where: { tenantId: admin.tenantId, action: "admin:update_staff" },
      orderBy: { pos: "asc" },
    });
    expect(events.map((e) => (e.data as { target: { changes: string[] } }).target.changes)).toEqual([
      ["roles"],
      ["disable"],
      ["enable"],
      ["unlock"],
      ["sign_out"],
    ]);
    expect(events[0]!.data).toMatchObject({ before: { roles: ["reviewer"] }, after: { roles: ["ops", "reviewer"] } });
  });

  it("an admin cannot change their own roles nor disable themselves; the last active admin stays, even when two admins approve each other's demotion at once", async () => {
    const admin = await adminOf(ES);
    expect(await refusal(updateStaff(admin, admin.userId, { roles: ["ops"] }))).toMatchObject({
      code: "permission_denied",
      reason: "own_roles",
    });
    expect(await refusal(updateStaff(admin, admin.userId, { disabled: true }))).toMatchObject({
      code: "permission_denied",
      reason: "self_disable",
    });

    // A second admin (made directly in the database: an admin from before provenance tracking, like the seed's).
    const second = await db().staffUser.update({
      where: { email: staffOf(ES, "auditor").email },
      data: { roles: ["admin", "auditor"] },
    });
    const admin2 = await actorFor(second.email);
    // Each proposes taking admin away from the other; both wait. Approved at the same moment, only one applies.
    const fromFirst = (await updateStaff(admin, second.id, { roles: ["auditor"] })) as QueuedAdminChange;
    const fromSecond = (await updateStaff(admin2, admin.userId, { roles: ["ops"] })) as QueuedAdminChange;
    expect(fromFirst.status).toBe("awaiting_second_admin");
    const results = await Promise.allSettled([
      decideAdminChange(admin2, fromFirst.change.id, "approve"),
      decideAdminChange(admin, fromSecond.change.id, "approve"),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const admins = await db().staffUser.findMany({
      where: { tenantId: admin.tenantId, disabled: false, roles: { has: "admin" } },
    });
    expect(admins).toHaveLength(1);
    const remainingActor = await actorFor(admins[0]!.email);
    // The last admin cannot be demoted or disabled (by anyone: only themselves could, and that is refused too).
    expect(await refusal(updateStaff(remainingActor, admins[0]!.id, { roles: ["ops"] }))).toMatchObject({
      reason: "own_roles",
    });
    // Restore for the other tests in this file.
    await db().adminChange.updateMany({
      where: { tenantId: admin.tenantId, status: "pending" },
      data: { status: "cancelled" },
    });
    await db().staffUser.update({
      where: { id: admin.userId },
      data: { roles: ["admin"], disabled: false, adminSince: null, adminGrantedByIds: [] },
    });
    await db().staffUser.update({
      where: { id: second.id },
      data: { roles: ["auditor"], adminSince: null, adminGrantedByIds: [] },
    });
  });

  it("the last admin cannot be disabled or demoted by a disabled-then-re-enabled path, and a foreign tenant's member is not found", async () => {
    const es = await adminOf(ES);
    const us = await adminOf(US);
    expect(await refusal(updateStaff(es, us.userId, { disabled: true }))).toMatchObject({ code: "not_found" });
    expect(await refusal(updateStaff(es, "not-a-uuid", { disabled: true }))).toMatchObject({ code: "not_found" });
    expect(await refusal(updateStaff(es, us.userId, {}))).toMatchObject({ code: "invalid_arguments" });
    // A second, disabled admin; then the first is the only active admin and cannot lose the role via the other.
    const extra = await db().staffUser.create({
      data: { tenantId: es.tenantId, email: newEmail(), name: "Extra admin", roles: ["admin"], disabled: true },
    });
    const extraActor = { ...es, userId: extra.id, email: "x" };
    expect(await refusal(updateStaff(extraActor, es.userId, { roles: ["ops"] }))).toMatchObject({
      code: "permission_denied",
      reason: "last_admin",
    });
    expect(await refusal(updateStaff(extraActor, es.userId, { disabled: true }))).toMatchObject({
      code: "permission_denied",
      reason: "last_admin",
    });
    const reviewer = await actorFor(staffOf(ES, "reviewer").email);
    expect(await refusal(updateStaff(reviewer, extra.id, { disabled: false }))).toMatchObject({
      code: "permission_denied",
    });
  });

  it("the list: search, passkey count, pending setup, tenant only", async () => {
    const admin = await adminOf(ES);
    const all = await listStaff(admin);
    expect(all.every((s) => s.email.endsWith("tienda-es.test"))).toBe(true);
    expect(all.length).toBeGreaterThanOrEqual(5);
    const found = await listStaff(admin, { q: "LUCÍA" });
    expect(found.map((s) => s.email)).toEqual([staffOf(ES, "reviewer").email]);
    expect(found[0]).toMatchObject({ passkeys: 0, hasPassword: true, setupPendingUntil: null });
    const invited = await invite(admin, { email: newEmail(), name: "Pending Person", roles: ["ops"] });
    expect((await listStaff(admin, { q: "pending person" }))[0]).toMatchObject({ id: invited.id, hasPassword: false });
    expect((await listStaff(admin, { q: "pending person" }))[0]!.setupPendingUntil).toBeInstanceOf(Date);
    expect(await listStaff(admin, { q: "shop-us" })).toEqual([]);
  });
});
