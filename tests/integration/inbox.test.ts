// The inbox ("waiting for you", docs/design.md "Inbox") through the real database: a second approval waits
// for every reviewer who may give it — not the one who approved, not one who edited it; changes for a second
// admin wait for the admins whose approval counts, never for their proposer; ops see refunds in doubt. Own
// tenant only. And the database announces what changes it (an approval, an admin change) without waking an
// agent's status wait.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { pgClient } from "@/lib/server/db/pg-client";
import type { Actor } from "@/lib/server/auth/actor";
import { INBOX_SECTION_LIMIT, getInbox } from "@/lib/server/inbox/get-inbox";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { editProposalAmount } from "@/lib/server/proposals/edit-proposal-amount";
import { grantAdminByOperator } from "@/lib/server/admin/grant-admin-by-operator";
import { proposePolicyChange } from "@/lib/server/admin/policy/propose-policy-change";
import { decidePolicyChange } from "@/lib/server/admin/policy/decide-policy-change";
import { ChangeListener, type ProposalChangeEvent } from "@/lib/server/realtime/change-listener";
import { actorFor, staffOf } from "../support/actors";
import { refusal } from "../support/refusal";
import { approvedProposal } from "./audit-support";
import { makeProposal, minutesFromNow } from "./jobs-support";
import { preparedForFreshOrder } from "./proposal-support";
import { ES, US, ana } from "./gateway-support";

let r1: Actor;
let r2: Actor;
let usReviewer: Actor;
beforeAll(async () => {
  r1 = await actorFor(staffOf(ES, "reviewer", 0).email);
  r2 = await actorFor(staffOf(ES, "reviewer", 1).email);
  usReviewer = await actorFor(staffOf(US, "reviewer", 0).email);
});
const secondIds = async (actor: Actor) => (await getInbox(actor)).secondApprovals?.map((i) => i.proposalId) ?? [];

describe("reviewers: second approvals", () => {
  it("after one reviewer's approval of a two-approval proposal it waits for the other reviewer only, then leaves when decided", async () => {
    const before = {
      r1: (await getInbox(r1)).count,
      r2: (await getInbox(r2)).count,
      us: (await getInbox(usReviewer)).count,
    };
    const { proposal: p, number } = await preparedForFreshOrder(60_000); // ≥ €500.00: two approvals
    expect(p.requiredApprovals).toBe(2);
    // Pending with no approval yet: the queue's (counted in `pending`), not "waiting for you".
    expect(await secondIds(r2)).not.toContain(p.id);
    expect((await getInbox(r2)).count).toBe(before.r2);

    await approveProposal(r1, { proposalId: p.id, hash: p.hash });
    const inbox2 = await getInbox(r2);
    expect(inbox2.count).toBe(before.r2 + 1);
    expect(inbox2.secondApprovals).toContainEqual({
      proposalId: p.id,
      kind: "refund",
      orderNumber: number,
      amountMinor: 60_000,
      currency: "EUR",
      approvals: 1,
      requiredApprovals: 2,
      approvedBy: [r1.name],
      expiresAt: p.expiresAt.toISOString(),
    });
    // The first reviewer is not asked again (one person never gives both approvals); another tenant sees nothing.
    expect(await secondIds(r1)).not.toContain(p.id);
    expect((await getInbox(r1)).count).toBe(before.r1);
    expect((await getInbox(usReviewer)).count).toBe(before.us);
    expect(await secondIds(usReviewer)).not.toContain(p.id);

    await approveProposal(r2, { proposalId: p.id, hash: p.hash });
    expect(await secondIds(r2)).not.toContain(p.id);
    expect((await getInbox(r2)).count).toBe(before.r2);
  });

  it("leaves out a proposal the reviewer edited (requested), and one that expired", async () => {
    const { proposal: p } = await preparedForFreshOrder(90_000);
    // r2 lowers the amount (still two approvals): the new proposal is r2's own request.
    const edited = await editProposalAmount(r2, { proposalId: p.id, hash: p.hash, amountMinor: 70_000 });
    const v2 = await db().proposal.findUniqueOrThrow({ where: { id: edited.proposalId } });
    expect(v2).toMatchObject({ requiredApprovals: 2, requestedByStaffId: r2.userId });
    await approveProposal(r1, { proposalId: v2.id, hash: v2.hash });
    expect(await secondIds(r2)).not.toContain(v2.id);

    const { proposal: q } = await preparedForFreshOrder(80_000);
    await approveProposal(r1, { proposalId: q.id, hash: q.hash });
    expect(await secondIds(r2)).toContain(q.id);
    // Exactly at its expiry it is no longer approvable, so no longer waiting (the queue's own condition).
    await db().proposal.update({ where: { id: q.id }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect(await secondIds(r2)).not.toContain(q.id);
  });
});

describe("reviewers: the count does not stop at the list", () => {
  it("counts every proposal waiting for a second approval though it lists the first INBOX_SECTION_LIMIT; one holding all its approvals is not waiting", async () => {
    const before = await getInbox(r2);
    const admin = await actorFor(staffOf(ES, "admin").email);
    const made: string[] = [];
    for (let i = 0; i < INBOX_SECTION_LIMIT + 2; i++) {
      const p = await makeProposal(ES, { expiresAt: minutesFromNow(30), amountMinor: 60_000 });
      await db().proposal.update({ where: { id: p.id }, data: { requiredApprovals: 2 } });
      await db().approval.create({
        data: {
          tenantId: p.tenantId,
          proposalId: p.id,
          approverId: r1.userId,
          proposalHash: p.hash,
          authMethod: "password",
          authTime: new Date(),
          traceId: p.traceId,
        },
      });
      made.push(p.id);
    }
    // Both approvals given, not yet moved on by the executor: nobody is asked for a third.
    await db().approval.create({
      data: {
        tenantId: admin.tenantId,
        proposalId: made[0]!,
        approverId: admin.userId,
        proposalHash: "h",
        authMethod: "password",
        authTime: new Date(),
        traceId: "t",
      },
    });
    try {
      const after = await getInbox(r2);
      expect(after.count).toBe(before.count + INBOX_SECTION_LIMIT + 1);
      expect(after.secondApprovals).toHaveLength(INBOX_SECTION_LIMIT);
      expect(after.secondApprovals!.map((i) => i.proposalId)).not.toContain(made[0]);
    } finally {
      await db().proposal.updateMany({ where: { id: { in: made } }, data: { status: "expired" } });
    }
  });
});

describe("who has which section", () => {
  it("auditors have no inbox; each role sees only its own sections", async () => {
    expect(await refusal(getInbox(await actorFor(staffOf(ES, "auditor").email)))).toMatchObject({
      code: "permission_denied",
      reason: "role",
    });
    const reviewer = await getInbox(r1);
    expect(reviewer).toMatchObject({ adminChanges: null, inDoubt: null, pending: { count: expect.any(Number) } });
    expect(reviewer.secondApprovals).not.toBeNull();
    const ops = await getInbox(await actorFor(staffOf(ES, "ops").email));
    expect(ops).toMatchObject({ secondApprovals: null, pending: null, adminChanges: null });
    expect(ops.inDoubt).not.toBeNull();
  });

  it("ops: a refund in doubt waits for the tenant's ops, not another tenant's", async () => {
    const esOps = await actorFor(staffOf(ES, "ops").email);
    const usOps = await actorFor(staffOf(US, "ops").email);
    const before = { es: await getInbox(esOps), us: await getInbox(usOps) };
    const { proposal } = await approvedProposal(ana, 1_234);
    const exec = await db().execution.create({
      data: {
        tenantId: proposal.tenantId,
        proposalId: proposal.id,
        idempotencyKey: `refund-${proposal.id}`,
        attempts: 1,
        status: "unknown",
        lastAttemptAt: new Date(),
      },
    });
    const after = await getInbox(esOps);
    expect(after.count).toBe(before.es.count + 1);
    expect(after.inDoubt).toContainEqual(
      expect.objectContaining({ executionId: exec.id, proposalId: proposal.id, amountMinor: 1_234, why: "unknown" }),
    );
    expect((await getInbox(usOps)).count).toBe(before.us.count);
    // Settled: no longer in doubt.
    await db().execution.update({ where: { id: exec.id }, data: { status: "succeeded", settledAt: new Date() } });
    expect((await getInbox(esOps)).count).toBe(before.es.count);
  });
});

describe("admins: changes for a second admin", () => {
  it("a policy loosening waits for the other admin, never for its proposer, and leaves when decided", async () => {
    const admin = await actorFor(staffOf(ES, "admin").email);
    // The demo tenant has one admin: the operator makes the auditor a second one.
    await grantAdminByOperator({ tenantSlug: ES, email: staffOf(ES, "auditor").email });
    const second = await actorFor(staffOf(ES, "auditor").email);
    const threshold = (await db().tenant.findFirstOrThrow({ where: { slug: ES } })).dualApprovalThresholdMinor ?? 0;
    const before = (await getInbox(admin)).count;
    const proposed = await proposePolicyChange(second, { values: { dualApprovalThresholdMinor: threshold + 1_000 } });
    expect(proposed.status).toBe("awaiting_second_admin");

    const inbox = await getInbox(admin);
    expect(inbox.count).toBe(before + 1);
    expect(inbox.adminChanges).toContainEqual(
      expect.objectContaining({ kind: "policy_change", version: proposed.version, proposedBy: second.name }),
    );
    // Self-proposed: not in the proposer's inbox.
    expect((await getInbox(second)).adminChanges).toEqual([]);
    // Another tenant's admin never sees it.
    const usAdmin = await getInbox(await actorFor(staffOf(US, "admin").email));
    expect(usAdmin.adminChanges).toEqual([]);

    await decidePolicyChange(admin, proposed.version, "approve");
    expect((await getInbox(admin)).count).toBe(before);
  });
});

describe("what the database announces for the inbox", () => {
  const opened: ChangeListener[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((l) => l.close()));
  });
  const listen = async (tenantId: string) => {
    const l = new ChangeListener({
      connect: () => pgClient(process.env.DATABASE_URL!),
      maxWaiters: 10,
    });
    opened.push(l);
    const seen: ProposalChangeEvent[] = [];
    l.subscribe(tenantId, (e) => seen.push(e));
    await l.ready();
    return { l, seen };
  };
  const until = async (check: () => boolean, ms = 3_000) => {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error("condition not met in time");
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  it("a first approval (status unchanged) is announced with ids only; an agent's status wait does not end on it", async () => {
    const { proposal: p } = await preparedForFreshOrder(61_000);
    const { l, seen } = await listen(p.tenantId);
    const wait = await l.beginWait(p.tenantId, p.id, 1_500);
    if ("refused" in wait) throw new Error("wait refused");
    await approveProposal(r1, { proposalId: p.id, hash: p.hash });
    await until(() => seen.length > 0);
    expect(seen).toEqual([{ tenantId: p.tenantId, proposalId: p.id, kind: "approval" }]);
    expect(await wait.result).toEqual({ outcome: "timeout" });
  });

  it("a policy change is announced to its tenant only", async () => {
    const es = await db().tenant.findFirstOrThrow({ where: { slug: ES } });
    const us = await db().tenant.findFirstOrThrow({ where: { slug: US } });
    const esSeen = await listen(es.id);
    const usSeen = await listen(us.id);
    const admin = await actorFor(staffOf(ES, "admin").email);
    // A tightening (a lower threshold) applies at once: a new policy version, announced all the same.
    const threshold = es.dualApprovalThresholdMinor ?? 0;
    await proposePolicyChange(admin, { values: { dualApprovalThresholdMinor: threshold - 1_000 } });
    await until(() => esSeen.seen.length > 0);
    expect(esSeen.seen).toEqual([{ tenantId: es.id, kind: "admin" }]);
    await new Promise((r) => setTimeout(r, 100));
    expect(usSeen.seen).toEqual([]);
  });
});
