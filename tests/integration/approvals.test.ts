// Approvals against the real database: proposals are created by the real gateway handler, decisions go
// through the real use cases with actors built from the demo staff rows.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { rejectProposal } from "@/lib/server/proposals/reject-proposal";
import { listPendingProposals } from "@/lib/server/proposals/list-pending-proposals";
import { getProposal } from "@/lib/server/proposals/get-proposal";
import { reprepareProposal } from "@/lib/server/proposals/reprepare-proposal";
import { editProposalAmount } from "@/lib/server/proposals/edit-proposal-amount";
import { actorFor, staffOf } from "../support/actors";
import {
  ES,
  US,
  ana,
  pablo,
  john,
  anthropicCall,
  headersFor,
  send,
  tokenFor,
  webKey,
  freshTrace,
} from "./gateway-support";
import { createPaidOrder } from "../../scripts/lib/fixtures";
import { asRefund } from "@/lib/domain/refund-row";

/** A fresh paid card order for a demo customer, so every test works on its own order. */
async function newOrder(tenant: string, customer: string, amountMinor: number): Promise<string> {
  const t = await db().tenant.findUniqueOrThrow({ where: { slug: tenant } });
  return (await createPaidOrder(db(), t, { customerId: customer, amountMinor, prefix: "T" })).number;
}

async function prepare(orderOrAmount: string | number, customer: string, tenant = ES) {
  const order = typeof orderOrAmount === "number" ? await newOrder(tenant, customer, orderOrAmount) : orderOrAmount;
  const a = await send(
    anthropicCall("prepare_refund", { order_id: order, reason: "damaged_item" }),
    headersFor({ key: webKey(tenant), token: await tokenFor(tenant, customer), trace: freshTrace() }),
  );
  expect(a.content.code).toBe("approval_required");
  const result = a.content.result as { proposal_id?: string; id?: string; hash: string };
  const id = result.proposal_id ?? result.id!;
  return asRefund(await db().proposal.findUniqueOrThrow({ where: { id } }));
}

async function refundStatus(proposalId: string, customer: string, tenant = ES) {
  const a = await send(
    anthropicCall("get_refund_status", { proposal_id: proposalId }),
    headersFor({ key: webKey(tenant), token: await tokenFor(tenant, customer) }),
  );
  return a.content;
}

const approvals = (proposalId: string) => db().approval.count({ where: { proposalId } });

describe("approve", () => {
  it("approves with the shown hash: approval row, state, audit event; the agent then sees result_pending", async () => {
    const p = await prepare(12_345, ana);
    const reviewer = await actorFor(staffOf(ES, "reviewer").email);
    const r = await approveProposal(reviewer, { proposalId: p.id, hash: p.hash });
    expect(r).toEqual({ proposalId: p.id, status: "approved", approvals: 1, requiredApprovals: 1 });
    const row = await db().approval.findFirstOrThrow({ where: { proposalId: p.id } });
    expect(row).toMatchObject({ approverId: reviewer.userId, proposalHash: p.hash, authMethod: "session" });
    const events = await db().auditEvent.findMany({ where: { proposalId: p.id, action: "proposal:approve" } });
    expect(events.map((e) => e.outcome)).toEqual(["ok"]);
    expect(events[0]!.proposalHash).toBe(p.hash);
    expect((await refundStatus(p.id, ana)).code).toBe("result_pending");
  });

  it("refuses a forged hash and records no approval", async () => {
    const p = await prepare(8_990, ana);
    const reviewer = await actorFor(staffOf(ES, "reviewer").email);
    const forged = "0".repeat(64);
    await expect(approveProposal(reviewer, { proposalId: p.id, hash: forged })).rejects.toMatchObject({
      code: "invalid_arguments",
    });
    await expect(approveProposal(reviewer, { proposalId: p.id, hash: "not-a-hash" })).rejects.toMatchObject({
      code: "invalid_arguments",
    });
    expect(await approvals(p.id)).toBe(0);
    expect((await db().proposal.findUniqueOrThrow({ where: { id: p.id } })).status).toBe("pending_approval");
    const denied = await db().auditEvent.findMany({ where: { proposalId: p.id, action: "proposal:approve" } });
    expect(denied.map((e) => e.outcome)).toEqual(["invalid_arguments"]);
  });

  it("invalidates the proposal when the order changed (a refund elsewhere) and refuses", async () => {
    const p = await prepare("ORD-1003", pablo);
    await db().refund.create({
      data: {
        tenantId: p.tenantId,
        orderId: p.orderId,
        paymentId: p.paymentId,
        amountMinor: 1000,
        currency: p.currency,
        status: "succeeded",
        reason: "made elsewhere",
      },
    });
    const reviewer = await actorFor(staffOf(ES, "reviewer").email);
    await expect(approveProposal(reviewer, { proposalId: p.id, hash: p.hash })).rejects.toMatchObject({
      code: "invalidated",
    });
    const after = await db().proposal.findUniqueOrThrow({ where: { id: p.id } });
    expect(after.status).toBe("invalidated");
    expect(after.invalidationReason).toBe("amount_no_longer_refundable");
    expect(await approvals(p.id)).toBe(0);
    expect((await refundStatus(p.id, pablo)).code).toBe("invalidated");
  });

  it("refuses after expiry and marks the proposal expired", async () => {
    await db().tenant.update({ where: { slug: US }, data: { approvalExpiryMinutes: 0 } });
    const p = await prepare(4_999, john, US);
    await db().tenant.update({ where: { slug: US }, data: { approvalExpiryMinutes: 30 } });
    const reviewer = await actorFor(staffOf(US, "reviewer").email);
    await expect(approveProposal(reviewer, { proposalId: p.id, hash: p.hash })).rejects.toMatchObject({
      code: "expired",
    });
    expect((await db().proposal.findUniqueOrThrow({ where: { id: p.id } })).status).toBe("expired");
    expect(await approvals(p.id)).toBe(0);
  });

  it("50 parallel approve requests of one reviewer make exactly one approval", async () => {
    const p = await prepare(32_050, customerOf(US, "maria"), US);
    const reviewer = await actorFor(staffOf(US, "reviewer").email);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => approveProposal(reviewer, { proposalId: p.id, hash: p.hash })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results)
      if (r.status === "rejected") expect((r.reason as { code: string }).code).toMatch(/permission_denied/);
    expect(await approvals(p.id)).toBe(1);
    expect((await db().proposal.findUniqueOrThrow({ where: { id: p.id } })).status).toBe("approved");
  });

  it("four-eyes: at or above the threshold two distinct reviewers are needed, even racing", async () => {
    const p = await prepare(72_000, pablo); // €720.00 ≥ €500.00
    expect(p.requiredApprovals).toBe(2);
    const r1 = await actorFor(staffOf(ES, "reviewer", 0).email);
    const r2 = await actorFor(staffOf(ES, "reviewer", 1).email);
    const first = await approveProposal(r1, { proposalId: p.id, hash: p.hash });
    expect(first).toMatchObject({ status: "pending_approval", approvals: 1, requiredApprovals: 2 });
    const page = await listPendingProposals(r2, {});
    expect(page.rows.find((row) => row.id === p.id)).toMatchObject({
      approvals: 1,
      requiredApprovals: 2,
      flags: { twoApprovals: true },
    });
    await expect(approveProposal(r1, { proposalId: p.id, hash: p.hash })).rejects.toMatchObject({
      code: "permission_denied",
      details: { reason: "already_approved" },
    });
    const [a, b] = await Promise.allSettled([
      approveProposal(r2, { proposalId: p.id, hash: p.hash }),
      approveProposal(r2, { proposalId: p.id, hash: p.hash }),
    ]);
    expect([a, b].filter((x) => x.status === "fulfilled")).toHaveLength(1);
    expect(await approvals(p.id)).toBe(2);
    expect((await db().proposal.findUniqueOrThrow({ where: { id: p.id } })).status).toBe("approved");
  });

  it("nobody approves a proposal they requested", async () => {
    const p = await prepare(1_000, ana);
    const reviewer = await actorFor(staffOf(ES, "reviewer").email);
    await db().proposal.update({ where: { id: p.id }, data: { requestedByStaffId: reviewer.userId } });
    await expect(approveProposal(reviewer, { proposalId: p.id, hash: p.hash })).rejects.toMatchObject({
      code: "permission_denied",
      details: { reason: "own_proposal" },
    });
    expect(await approvals(p.id)).toBe(0);
  });

  it("auditors and ops are refused; a reviewer of another tenant gets not_found", async () => {
    const p = await prepare(2_000, ana);
    for (const role of ["auditor", "ops"] as const) {
      const actor = await actorFor(staffOf(ES, role).email);
      await expect(approveProposal(actor, { proposalId: p.id, hash: p.hash })).rejects.toMatchObject({
        code: "permission_denied",
      });
    }
    const foreign = await actorFor(staffOf(US, "reviewer").email);
    await expect(approveProposal(foreign, { proposalId: p.id, hash: p.hash })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(getProposal(foreign, p.id)).rejects.toMatchObject({ code: "not_found" });
    expect((await listPendingProposals(foreign, {})).rows.some((r) => r.id === p.id)).toBe(false);
    expect(await approvals(p.id)).toBe(0);
  });

  it("a stale session must step up: refused without, refused with a wrong password, accepted with the right one", async () => {
    const p = await prepare(3_000, ana);
    const who = staffOf(ES, "reviewer", 1);
    const stale = await actorFor(who.email, { authAgoSeconds: 6 * 60 });
    await expect(approveProposal(stale, { proposalId: p.id, hash: p.hash })).rejects.toMatchObject({
      details: { reason: "step_up_required" },
    });
    await expect(
      approveProposal(stale, { proposalId: p.id, hash: p.hash, stepUp: { method: "password", password: "wrong" } }),
    ).rejects.toMatchObject({
      details: { reason: "step_up_failed" },
    });
    expect(await approvals(p.id)).toBe(0);
    const before = Date.now();
    await approveProposal(stale, {
      proposalId: p.id,
      hash: p.hash,
      stepUp: { method: "password", password: who.password },
    });
    const row = await db().approval.findFirstOrThrow({ where: { proposalId: p.id } });
    expect(row.authMethod).toBe("password");
    expect(row.authTime.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it("a per-reviewer daily total caps approvals", async () => {
    await db().tenant.update({ where: { slug: US }, data: { reviewerDailyApprovalLimitMinor: 1000 } });
    const p = await prepare(4_999, john, US); // $49.99 > $10.00
    const reviewer = await actorFor(staffOf(US, "reviewer", 1).email);
    await expect(approveProposal(reviewer, { proposalId: p.id, hash: p.hash })).rejects.toMatchObject({
      code: "limit_exceeded",
    });
    await db().tenant.update({ where: { slug: US }, data: { reviewerDailyApprovalLimitMinor: null } });
    expect(await approvals(p.id)).toBe(0);
  });
});

describe("reject", () => {
  it("needs a reason; the agent receives it through get_refund_status", async () => {
    const p = await prepare(5_000, john, US);
    const reviewer = await actorFor(staffOf(US, "reviewer").email);
    await expect(rejectProposal(reviewer, { proposalId: p.id, hash: p.hash, reason: "" })).rejects.toMatchObject({
      code: "invalid_arguments",
    });
    await rejectProposal(reviewer, {
      proposalId: p.id,
      hash: p.hash,
      reason: "Item was returned damaged by the customer",
    });
    const status = await refundStatus(p.id, john, US);
    expect(status.code).toBe("rejected");
    expect(JSON.stringify(status)).toContain("Item was returned damaged by the customer");
    await expect(
      approveProposal(await actorFor(staffOf(US, "reviewer", 1).email), { proposalId: p.id, hash: p.hash }),
    ).rejects.toMatchObject({
      code: "rejected",
    });
  });

  it("auditors cannot reject", async () => {
    const p = await prepare(6_000, ana);
    await expect(
      rejectProposal(await actorFor(staffOf(ES, "auditor").email), { proposalId: p.id, hash: p.hash, reason: "no" }),
    ).rejects.toMatchObject({
      code: "permission_denied",
    });
  });
});

describe("queue", () => {
  it("lists pending proposals soonest expiry first with keyset pagination", async () => {
    const reviewer = await actorFor(staffOf(ES, "reviewer").email);
    await prepare(7_000, ana);
    await prepare(8_000, ana);
    await prepare("ORD-1003", pablo);
    const all = await listPendingProposals(reviewer, { limit: 100 });
    const expiries = all.rows.map((r) => r.expiresAt);
    expect([...expiries].sort()).toEqual(expiries);
    const first = await listPendingProposals(reviewer, { limit: 2 });
    expect(first.rows).toHaveLength(2);
    const second = await listPendingProposals(reviewer, { limit: 2, cursor: first.nextCursor! });
    expect([...first.rows, ...second.rows].map((r) => r.id)).toEqual(
      all.rows.slice(0, first.rows.length + second.rows.length).map((r) => r.id),
    );
    await expect(listPendingProposals(reviewer, { cursor: "garbage" })).rejects.toMatchObject({
      code: "invalid_arguments",
    });
    const dup = all.rows.find((r) => r.orderNumber === "ORD-1003");
    expect(dup?.flags.duplicate).toBe(true); // ORD-1003 was partly refunded
  });
});

describe("re-prepare and edit = supersede", () => {
  it("re-prepares an expired proposal from current data: new id and hash, supersedes recorded, re-preparer is the requester", async () => {
    await db().tenant.update({ where: { slug: ES }, data: { approvalExpiryMinutes: 0 } });
    const p = await prepare(9_000, ana);
    await db().tenant.update({ where: { slug: ES }, data: { approvalExpiryMinutes: 30 } });
    const ops = await actorFor(staffOf(ES, "ops").email);
    const made = await reprepareProposal(ops, { proposalId: p.id });
    const v2 = await db().proposal.findUniqueOrThrow({ where: { id: made.proposalId } });
    expect(v2.id).not.toBe(p.id);
    expect(v2.hash).not.toBe(p.hash);
    expect(v2).toMatchObject({
      supersedesId: p.id,
      requestedByStaffId: ops.userId,
      amountMinor: 9_000,
      status: "pending_approval",
      traceId: p.traceId,
    });
    expect((await db().proposal.findUniqueOrThrow({ where: { id: p.id } })).status).toBe("expired");
    // The old one is never revived, and cannot be re-prepared twice.
    await expect(reprepareProposal(ops, { proposalId: p.id })).rejects.toMatchObject({
      details: { reason: "already_superseded" },
    });
    // A pending, unexpired proposal cannot be re-prepared.
    await expect(reprepareProposal(ops, { proposalId: v2.id })).rejects.toMatchObject({ code: "permission_denied" });
    // Auditors cannot re-prepare.
    await expect(
      reprepareProposal(await actorFor(staffOf(ES, "auditor").email), { proposalId: p.id }),
    ).rejects.toMatchObject({ code: "permission_denied" });
  });

  it("a re-prepared proposal uses what is left now, after a refund elsewhere invalidated the first", async () => {
    const p = await prepare(10_000, ana);
    await db().refund.create({
      data: {
        tenantId: p.tenantId,
        orderId: p.orderId,
        paymentId: p.paymentId,
        amountMinor: 2_500,
        currency: p.currency,
        status: "succeeded",
      },
    });
    const r1 = await actorFor(staffOf(ES, "reviewer", 0).email);
    await expect(approveProposal(r1, { proposalId: p.id, hash: p.hash })).rejects.toMatchObject({
      code: "invalidated",
    });
    const made = await reprepareProposal(r1, { proposalId: p.id });
    const v2 = await db().proposal.findUniqueOrThrow({ where: { id: made.proposalId } });
    expect(v2.amountMinor).toBe(7_500);
    // The re-preparer may not approve it; another reviewer may.
    await expect(approveProposal(r1, { proposalId: v2.id, hash: v2.hash })).rejects.toMatchObject({
      details: { reason: "own_proposal" },
    });
    const r2 = await actorFor(staffOf(ES, "reviewer", 1).email);
    expect((await approveProposal(r2, { proposalId: v2.id, hash: v2.hash })).status).toBe("approved");
  });

  it("edit lowers the amount: v1 invalidated, v2 re-derived and re-hashed, the editor cannot approve v2, the agent learns both", async () => {
    const p = await prepare(60_000, ana); // ≥ €500: two approvals
    expect(p.requiredApprovals).toBe(2);
    const editor = await actorFor(staffOf(ES, "reviewer", 0).email);
    await expect(
      editProposalAmount(editor, { proposalId: p.id, hash: p.hash, amountMinor: 60_000 }),
    ).rejects.toMatchObject({ code: "invalid_arguments" });
    await expect(
      editProposalAmount(editor, { proposalId: p.id, hash: p.hash, amountMinor: 12.5 }),
    ).rejects.toMatchObject({ code: "invalid_arguments" });
    await expect(
      editProposalAmount(editor, { proposalId: p.id, hash: "a".repeat(64), amountMinor: 100 }),
    ).rejects.toMatchObject({ code: "invalid_arguments" });
    const made = await editProposalAmount(editor, { proposalId: p.id, hash: p.hash, amountMinor: 40_000 });
    const v1 = await db().proposal.findUniqueOrThrow({ where: { id: p.id } });
    const v2 = await db().proposal.findUniqueOrThrow({ where: { id: made.proposalId } });
    expect(v1).toMatchObject({ status: "invalidated", invalidationReason: "superseded_by_edit" });
    expect(v2).toMatchObject({
      amountMinor: 40_000,
      supersedesId: p.id,
      requestedByStaffId: editor.userId,
      requiredApprovals: 1,
    });
    expect(v2.hash).not.toBe(p.hash);
    await expect(approveProposal(editor, { proposalId: v2.id, hash: v2.hash })).rejects.toMatchObject({
      details: { reason: "own_proposal" },
    });
    const status = await refundStatus(p.id, ana);
    expect(status.code).toBe("invalidated");
    expect(status.error).toMatchObject({
      amount: { minor: 60_000 },
      replaced_by: { proposal_id: v2.id, amount: { minor: 40_000 } },
    });
    expect((await refundStatus(v2.id, ana)).code).toBe("approval_required");
    // The old version's approval, were it attempted now, is refused.
    await expect(
      approveProposal(await actorFor(staffOf(ES, "reviewer", 1).email), { proposalId: p.id, hash: p.hash }),
    ).rejects.toMatchObject({
      code: "invalidated",
    });
  });

  it("ops cannot edit", async () => {
    const p = await prepare(11_000, ana);
    await expect(
      editProposalAmount(await actorFor(staffOf(ES, "ops").email), {
        proposalId: p.id,
        hash: p.hash,
        amountMinor: 100,
      }),
    ).rejects.toMatchObject({
      code: "permission_denied",
    });
  });
});

describe("reviewer notification", () => {
  it("a new proposal (from the agent, or re-prepared) queues a signed webhook delivery when the tenant has one", async () => {
    await db().tenant.update({
      where: { slug: ES },
      data: { reviewWebhookUrl: "http://127.0.0.1:9/hook", reviewWebhookSecret: "s".repeat(40) },
    });
    try {
      const p = await prepare(4_321, ana);
      const deliveries = await db().webhookDelivery.findMany({ where: { proposalId: p.id } });
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]!.status).toBe("pending");
      expect(JSON.stringify(deliveries[0]!.payload)).not.toContain("Ana");
    } finally {
      await db().tenant.update({ where: { slug: ES }, data: { reviewWebhookUrl: null, reviewWebhookSecret: null } });
    }
    const quiet = await prepare(4_322, ana);
    expect(await db().webhookDelivery.count({ where: { proposalId: quiet.id } })).toBe(0);
  });
});

function customerOf(tenant: string, key: string) {
  return `cus_${tenant.replace(/-/g, "_")}_${key}`;
}
