// Governance a new tenant trips on (issue #36 items 3 and 4, docs/operations.md "A tenant with a single admin" and
// "Safe defaults"): the lone admin who tightened a control and cannot loosen it alone is told who can approve; the
// colleague the operator makes admin (npm run admin:grant) counts as independent although the lone admin invited
// them; and a tenant made by tenant:create starts with four eyes, a daily cap and step-up at every approval.
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import type { Actor } from "@/lib/server/auth/actor";
import { createTenant } from "@/lib/server/tenants/create-tenant";
import { inviteStaff } from "@/lib/server/admin/invite-staff";
import { grantAdminByOperator } from "@/lib/server/admin/grant-admin-by-operator";
import { proposePolicyChange } from "@/lib/server/admin/policy/propose-policy-change";
import { decidePolicyChange } from "@/lib/server/admin/policy/decide-policy-change";
import { getPolicy } from "@/lib/server/admin/policy/get-policy";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { policyWarnings } from "@/lib/domain/policy";
import { actorFor, staffOf } from "../support/actors";
import { refusal } from "../support/refusal";
import { preparedForFreshOrder } from "./proposal-support";
import { ES } from "./gateway-support";

const base = { currency: "EUR", locale: "en", timeZone: "Europe/Berlin" };

describe("the lone-admin trap", () => {
  it("the operator-granted colleague approves the loosening the lone admin proposes; before the grant the refusal names the way out", async () => {
    await createTenant({ ...base, slug: "trap-co", name: "Trap", adminEmail: "ada@trap.example", adminName: "Ada" });
    const ada: Actor = await actorFor("ada@trap.example");
    // The lone admin tightens approval expiry to one minute: a tightening applies at once.
    expect((await proposePolicyChange(ada, { values: { approvalExpiryMinutes: 1 } })).status).toBe("active");
    // They invite a colleague (a reviewer: applies at once, no second admin needed).
    await inviteStaff(ada, { email: "bea@trap.example", name: "Bea", roles: ["reviewer"] });

    // Loosening it back: nobody can approve, and the refusal says so with the exact operator command.
    const alone = await refusal(proposePolicyChange(ada, { values: { approvalExpiryMinutes: 30 } }));
    expect(alone).toMatchObject({ code: "permission_denied", reason: "no_second_admin" });
    expect(alone.message).toContain("npm run admin:grant -- --tenant trap-co --email");
    expect(await db().policyVersion.count({ where: { tenantId: ada.tenantId, status: "awaiting_second_admin" } })).toBe(
      0,
    );

    // The operator grants admin to the colleague the lone admin invited.
    await grantAdminByOperator({ tenantSlug: "trap-co", email: "bea@trap.example" });
    const bea = await actorFor("bea@trap.example");
    expect(await db().staffUser.findUniqueOrThrow({ where: { email: "bea@trap.example" } })).toMatchObject({
      invitedById: ada.userId,
      credentialsResetByIds: [ada.userId],
      operatorGrantedAt: expect.any(Date),
    });
    await sleep(5); // the grant precedes the proposal (an admin role counts for changes proposed after it)

    const proposed = await proposePolicyChange(ada, { values: { approvalExpiryMinutes: 30 } });
    expect(proposed.status).toBe("awaiting_second_admin");
    // Ada cannot approve her own change, and the refusal names who can.
    const own = await refusal(decidePolicyChange(ada, proposed.version, "approve"));
    expect(own).toMatchObject({ code: "permission_denied", reason: "own_change" });
    expect(own.message).toContain("Who can approve it: Bea (bea@trap.example).");

    expect(await decidePolicyChange(bea, proposed.version, "approve")).toEqual({
      version: proposed.version,
      status: "active",
    });
    const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: "trap-co" } });
    expect(tenant).toMatchObject({ approvalExpiryMinutes: 30, policyVersion: proposed.version });
    const approved = await db().auditEvent.findFirstOrThrow({
      where: { tenantId: tenant.id, action: "admin:approve_policy" },
    });
    expect(approved).toMatchObject({ actorType: "staff", actorId: bea.userId });
  });
});

describe("safe defaults of a new tenant", () => {
  it("tenant:create sets four eyes from 500, a daily cap of 2,000 and step-up at every approval, in the currency's minor units; Admin has nothing to warn about", async () => {
    const eur = await createTenant({ ...base, slug: "safe-eur", name: "Safe", adminEmail: "ada@safe-eur.example" });
    const jpy = await createTenant({
      ...base,
      currency: "JPY",
      slug: "safe-jpy",
      name: "Safe JP",
      adminEmail: "ada@safe-jpy.example",
    });
    expect(await db().tenant.findUniqueOrThrow({ where: { id: eur.tenantId } })).toMatchObject({
      dualApprovalThresholdMinor: 50_000,
      reviewerDailyApprovalLimitMinor: 200_000,
      approvalSessionMinutes: 0,
    });
    expect(await db().tenant.findUniqueOrThrow({ where: { id: jpy.tenantId } })).toMatchObject({
      dualApprovalThresholdMinor: 500,
      reviewerDailyApprovalLimitMinor: 2_000,
      approvalSessionMinutes: 0,
    });
    const admin = await actorFor("ada@safe-eur.example");
    const policy = await getPolicy(admin);
    expect(policy.values).toMatchObject({
      dualApprovalThresholdMinor: 50_000,
      reviewerDailyApprovalLimitMinor: 200_000,
      approvalSessionMinutes: 0,
    });
    expect(policyWarnings(policy.values)).toEqual([]);
    // Relaxing any of them is a loosening: the lone admin cannot do it alone.
    for (const values of [
      { approvalSessionMinutes: 5 },
      { dualApprovalThresholdMinor: null },
      { reviewerDailyApprovalLimitMinor: null },
    ]) {
      expect(await refusal(proposePolicyChange(admin, { values }))).toMatchObject({ reason: "no_second_admin" });
    }
  });

  it("enforced: a fresh sign-in does not approve, two reviewers from the threshold, the daily cap holds", async () => {
    // The values tenant:create gives, in force on the demo tenant (which has reviewers, channels and orders).
    const made = await db().tenant.findUniqueOrThrow({ where: { slug: "safe-eur" } });
    await db().tenant.update({
      where: { slug: ES },
      data: {
        dualApprovalThresholdMinor: made.dualApprovalThresholdMinor,
        reviewerDailyApprovalLimitMinor: made.reviewerDailyApprovalLimitMinor,
        approvalSessionMinutes: made.approvalSessionMinutes,
      },
    });
    const first = staffOf(ES, "reviewer", 0);
    const second = staffOf(ES, "reviewer", 1);
    const r1 = await actorFor(first.email, { authAgoSeconds: 1 });
    const r2 = await actorFor(second.email, { authAgoSeconds: 1 });
    const withPassword = (password: string) => ({ method: "password" as const, password });

    // Step-up at approval: signed in a second ago, still asked for the password (or a passkey).
    const small = (await preparedForFreshOrder(40_000, { prefix: "SAFE" })).proposal;
    expect(small.requiredApprovals).toBe(1);
    const bare = await refusal(approveProposal(r1, { proposalId: small.id, hash: small.hash }));
    expect(bare).toMatchObject({ code: "permission_denied", reason: "step_up_required" });
    expect(bare.message).toContain("every approval needs your password or a passkey");
    const ok = await approveProposal(r1, {
      proposalId: small.id,
      hash: small.hash,
      stepUp: withPassword(first.password),
    });
    expect(ok.status).toBe("approved");
    expect(await db().approval.findFirstOrThrow({ where: { proposalId: small.id } })).toMatchObject({
      authMethod: "password",
    });

    // Four eyes at or above 500.00: one approval leaves it pending.
    const large = (await preparedForFreshOrder(50_000, { prefix: "SAFE" })).proposal;
    expect(large.requiredApprovals).toBe(2);
    expect(
      (await approveProposal(r2, { proposalId: large.id, hash: large.hash, stepUp: withPassword(second.password) }))
        .status,
    ).toBe("pending_approval");

    // The daily cap of 2,000.00 per reviewer: 400 + 1,500 fit, another 200 does not.
    const big = (await preparedForFreshOrder(150_000, { prefix: "SAFE" })).proposal;
    await approveProposal(r1, { proposalId: big.id, hash: big.hash, stepUp: withPassword(first.password) });
    const over = (await preparedForFreshOrder(20_000, { prefix: "SAFE" })).proposal;
    expect(
      await refusal(
        approveProposal(r1, { proposalId: over.id, hash: over.hash, stepUp: withPassword(first.password) }),
      ),
    ).toMatchObject({ code: "limit_exceeded", reason: "daily_total" });
  });
});
