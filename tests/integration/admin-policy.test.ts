// Tenant policy as immutable numbered versions; loosening waits for a second admin,
// tightening applies at once; proposals record (and hash, v2) the version they were prepared under;
// tampering requiredApprovals or policyVersion in the database is refused at approval and at execution.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { isAppError } from "@/lib/domain/outcome";
import { recomputeProposalHash } from "@/lib/domain/proposal-hash";
import { getPolicy } from "@/lib/server/admin/policy/get-policy";
import { proposePolicyChange } from "@/lib/server/admin/policy/propose-policy-change";
import { decidePolicyChange } from "@/lib/server/admin/policy/decide-policy-change";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { executeRefund } from "@/lib/server/executions/execute-refund";
import type { Actor } from "@/lib/server/auth/actor";
import { actorFor, staffOf } from "../support/actors";
import { ES } from "./gateway-support";
import { preparedForFreshOrder } from "./proposal-support";

const prepare = async (amountMinor: number) => (await preparedForFreshOrder(amountMinor, { prefix: "POL" })).proposal;
async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return { code: error.code, reason: error.details?.reason, problem: error.details?.problem };
    throw error;
  }
  throw new Error("expected a refusal");
}

let admin: Actor;
let admin2: Actor;
let reviewer: Actor;
let reviewer2: Actor;
beforeAll(async () => {
  admin = await actorFor(staffOf(ES, "admin").email);
  // A second admin for four eyes on loosening changes.
  await db().staffUser.update({
    where: { email: staffOf(ES, "auditor").email },
    data: { roles: ["auditor", "admin"] },
  });
  admin2 = await actorFor(staffOf(ES, "auditor").email);
  reviewer = await actorFor(staffOf(ES, "reviewer").email);
  reviewer2 = await actorFor(staffOf(ES, "reviewer", 1).email);
});

describe("policy versions", () => {
  it("version 1 is the tenant's starting policy; a proposal carries it and a v2 hash", async () => {
    const policy = await getPolicy(admin);
    expect(policy).toMatchObject({
      version: 1,
      pending: null,
      values: { dualApprovalThresholdMinor: 50_000, approvalExpiryMinutes: 30, stepUpMinutes: 5 },
    });
    const p = await prepare(20_000);
    expect(p).toMatchObject({ policyVersion: 1, requiredApprovals: 1 });
    expect(recomputeProposalHash(p)).toBe(p.hash);
    expect(recomputeProposalHash({ ...p, hashVersion: 1, policyVersion: null })).not.toBe(p.hash);
  });

  it("lowering the dual-approval threshold applies at once: the next proposal needs two approvals and carries the new version; an earlier one keeps its version", async () => {
    const before = await prepare(20_000);
    const r = await proposePolicyChange(admin, { values: { dualApprovalThresholdMinor: 10_000 } });
    expect(r).toMatchObject({
      version: 2,
      status: "active",
      changes: [{ field: "dualApprovalThresholdMinor", before: 50_000, after: 10_000, direction: "tighter" }],
    });
    const after = await prepare(20_000);
    expect(after).toMatchObject({ policyVersion: 2, requiredApprovals: 2 });
    expect(recomputeProposalHash(after)).toBe(after.hash);
    // The earlier proposal keeps version 1 and its single approval requirement.
    expect(await db().proposal.findUniqueOrThrow({ where: { id: before.id } })).toMatchObject({
      policyVersion: 1,
      requiredApprovals: 1,
    });
    // Two distinct reviewers are needed for the new one.
    expect(await approveProposal(reviewer, { proposalId: after.id, hash: after.hash })).toMatchObject({
      status: "pending_approval",
      approvals: 1,
    });
    expect(await approveProposal(reviewer2, { proposalId: after.id, hash: after.hash })).toMatchObject({
      status: "approved",
      approvals: 2,
    });

    const event = await db().auditEvent.findFirstOrThrow({
      where: { tenantId: admin.tenantId, action: "admin:propose_policy" },
      orderBy: { pos: "desc" },
    });
    expect(event.data).toMatchObject({
      target: { kind: "policy", version: 2, basedOnVersion: 1 },
      before: { version: 1 },
      after: { version: 2, status: "active" },
    });
  });

  it("raising it waits for a second admin: nothing changes until then; the proposer cannot approve; the second admin's approval activates it", async () => {
    const r = await proposePolicyChange(admin, { values: { dualApprovalThresholdMinor: 100_000 } });
    expect(r).toMatchObject({ version: 3, status: "awaiting_second_admin" });
    expect((await getPolicy(admin)).version).toBe(2);
    const meanwhile = await prepare(20_000);
    expect(meanwhile).toMatchObject({ policyVersion: 2, requiredApprovals: 2 });
    // Only one change may wait at a time.
    expect(await refusal(proposePolicyChange(admin2, { values: { approvalExpiryMinutes: 60 } }))).toMatchObject({
      code: "permission_denied",
      reason: "change_pending",
    });
    expect(await refusal(decidePolicyChange(admin, 3, "approve"))).toMatchObject({
      code: "permission_denied",
      reason: "own_change",
    });
    expect(await refusal(decidePolicyChange(reviewer, 3, "approve"))).toMatchObject({ code: "permission_denied" });
    expect((await getPolicy(admin2)).pending).toMatchObject({
      version: 3,
      changes: [{ field: "dualApprovalThresholdMinor", direction: "looser" }],
    });

    expect(await decidePolicyChange(admin2, 3, "approve")).toEqual({ version: 3, status: "active" });
    expect(await refusal(decidePolicyChange(admin2, 3, "approve"))).toMatchObject({ reason: "not_pending" });
    const next = await prepare(20_000);
    expect(next).toMatchObject({ policyVersion: 3, requiredApprovals: 1 });
    expect(await db().proposal.findUniqueOrThrow({ where: { id: meanwhile.id } })).toMatchObject({
      policyVersion: 2,
      requiredApprovals: 2,
    });
    const history = (await getPolicy(admin)).history.map((h) => [h.version, h.status]);
    expect(history).toEqual([
      [3, "active"],
      [2, "superseded"],
      [1, "superseded"],
    ]);
    const tenant = await db().tenant.findUniqueOrThrow({ where: { id: admin.tenantId } });
    expect(tenant).toMatchObject({ policyVersion: 3, dualApprovalThresholdMinor: 100_000 });
  });

  it("a rejected loosening changes nothing; a tightening made meanwhile makes a waiting loosening stale", async () => {
    const a = await proposePolicyChange(admin, { values: { retentionDays: 30 } });
    expect(a.status).toBe("awaiting_second_admin");
    expect(await decidePolicyChange(admin2, a.version, "reject")).toEqual({ version: a.version, status: "rejected" });
    expect((await getPolicy(admin)).values.retentionDays).toBe(365);

    const b = await proposePolicyChange(admin, { values: { stepUpMinutes: 15 } });
    expect(b.status).toBe("awaiting_second_admin");
    const c = await proposePolicyChange(admin2, { values: { approvalExpiryMinutes: 20 } });
    expect(c.status).toBe("active");
    expect(await refusal(decidePolicyChange(admin, b.version, "approve"))).toMatchObject({ reason: "not_pending" });
    expect((await getPolicy(admin)).values).toMatchObject({ stepUpMinutes: 5, approvalExpiryMinutes: 20 });

    // The re-prepare cool-down after a rejection is versioned too: longer = tighter (at once), shorter waits.
    const longer = await proposePolicyChange(admin, { values: { rejectionCooldownMinutes: 2880 } });
    expect(longer.status).toBe("active");
    expect((await db().tenant.findUniqueOrThrow({ where: { id: admin.tenantId } })).rejectionCooldownMinutes).toBe(
      2880,
    );
    expect((await proposePolicyChange(admin, { values: { rejectionCooldownMinutes: 10 } })).status).toBe(
      "awaiting_second_admin",
    );
    expect((await db().tenant.findUniqueOrThrow({ where: { id: admin.tenantId } })).rejectionCooldownMinutes).toBe(
      2880,
    );
  });

  it("validates values, refuses a no-op and non-admins; versions are immutable in the database", async () => {
    expect(await refusal(proposePolicyChange(admin, { values: { approvalExpiryMinutes: 0 } }))).toMatchObject({
      code: "invalid_arguments",
    });
    expect(await refusal(proposePolicyChange(admin, { values: { dualApprovalThresholdMinor: 1.5 } }))).toMatchObject({
      code: "invalid_arguments",
    });
    expect(await refusal(proposePolicyChange(admin, { values: { unknownKnob: 1 } }))).toMatchObject({
      code: "invalid_arguments",
    });
    expect(await refusal(proposePolicyChange(admin, { values: { retentionDays: 365 } }))).toMatchObject({
      code: "invalid_arguments",
      problem: "no_change",
    });
    expect(await refusal(proposePolicyChange(reviewer, { values: { retentionDays: 400 } }))).toMatchObject({
      code: "permission_denied",
    });
    const stale = await actorFor(admin.email, { authAgoSeconds: 3600 });
    expect(await refusal(proposePolicyChange(stale, { values: { retentionDays: 400 } }))).toMatchObject({
      reason: "step_up_required",
    });
    await expect(
      sql`UPDATE "PolicyVersion" SET "values" = '{}'::jsonb WHERE "tenantId" = ${admin.tenantId}::uuid AND version = 1`.execute(
        sqlPool(),
      ),
    ).rejects.toThrow(/immutable/);
    await expect(
      sql`DELETE FROM "PolicyVersion" WHERE "tenantId" = ${admin.tenantId}::uuid AND version = 1`.execute(sqlPool()),
    ).rejects.toThrow(/never deleted/);
  });
});

describe("tampering with what the hash v2 binds", () => {
  it("requiredApprovals or policyVersion changed in the database: approval refused with invalidated (stored-hash mismatch)", async () => {
    // The tool is hashed too: an approval authorizes what the proposal's tool does, read from its row.
    for (const tamper of [
      { requiredApprovals: 2 },
      { policyVersion: 1 },
      { policyVersion: null },
      { tool: "lookup_order" },
    ]) {
      const p = await prepare(5_000);
      await db().proposal.update({ where: { id: p.id }, data: tamper });
      expect(await refusal(approveProposal(reviewer, { proposalId: p.id, hash: p.hash }))).toMatchObject({
        code: "invalidated",
        reason: "stored_hash_mismatch",
      });
      expect(await db().proposal.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
        status: "invalidated",
        invalidationReason: "stored_hash_mismatch",
      });
      expect(await db().approval.count({ where: { proposalId: p.id } })).toBe(0);
    }
  });

  it("changed after approval: execution refuses it (invalidated, stored-hash mismatch), nothing is sent", async () => {
    for (const tamper of [{ requiredApprovals: 2 }, { policyVersion: 2 }, { tool: "get_refund_status" }]) {
      const p = await prepare(5_000);
      expect(await approveProposal(reviewer, { proposalId: p.id, hash: p.hash })).toMatchObject({ status: "approved" });
      await db().proposal.update({ where: { id: p.id }, data: tamper });
      expect(await executeRefund(p.id)).toBe("revalidation_failed");
      expect(await db().proposal.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
        status: "invalidated",
        invalidationReason: "stored_hash_mismatch",
      });
      expect(await db().execution.count({ where: { proposalId: p.id } })).toBe(0);
    }
  });

  it("a v1 proposal (prepared before policy versions) still approves", async () => {
    const p = await prepare(5_000);
    // Re-create the legacy shape: no policy version, hash over the v1 fields, stored as version 1.
    const v1Hash = recomputeProposalHash({ ...p, hashVersion: 1, policyVersion: null });
    await db().proposal.update({ where: { id: p.id }, data: { hashVersion: 1, policyVersion: null, hash: v1Hash } });
    expect(await approveProposal(reviewer, { proposalId: p.id, hash: v1Hash })).toMatchObject({ status: "approved" });
  });
});
