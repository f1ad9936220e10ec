// Decisions reach the agent (docs/design.md): get_refund_status with wait_seconds holds the call until the
// proposal changes (LISTEN/NOTIFY through lib/server/realtime, no polling), and waiting on an unchanged
// proposal never spends the trace's identical-repeat budget.
import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { editProposalAmount } from "@/lib/server/proposals/edit-proposal-amount";
import { stopProposalChanges } from "@/lib/server/realtime/proposal-changes";
import { actorFor, staffOf } from "../support/actors";
import { ES, ana, anthropicCall, freshTrace, headersFor, pablo, send, tokenFor } from "./gateway-support";
import { freshCardOrder } from "./proposal-support";

afterAll(async () => {
  await stopProposalChanges();
});

async function prepared(amountMinor: number, trace: string, token: string) {
  const { number } = await freshCardOrder(amountMinor, { prefix: "W" });
  const a = await send(
    anthropicCall("prepare_refund", { order_id: number, reason: "damaged_item" }),
    headersFor({ token, trace }),
  );
  expect(a.content.code).toBe("approval_required");
  return { number, id: (a.content.result as { proposal_id: string }).proposal_id, answer: a };
}

const status = (proposal_id: string, wait_seconds?: number | null) =>
  anthropicCall("get_refund_status", wait_seconds === undefined ? { proposal_id } : { proposal_id, wait_seconds });

describe("get_refund_status with wait_seconds", () => {
  it("an agent waits 10 times in one conversation, the reviewer approves, the wait returns at once and the conversation goes on", async () => {
    const token = await tokenFor(ES, ana);
    const trace = freshTrace();
    const { id } = await prepared(4200, trace, token);
    const headers = headersFor({ token, trace });

    // Ten waits on an unchanged proposal, same trace, identical arguments (the repeat budget is 5).
    for (let i = 0; i < 10; i++) {
      const r = await send(status(id, 1), headers);
      expect(r.content.code).toBe("approval_required");
      expect(r.content.result).toMatchObject({ proposal_id: id, wait: { outcome: "timeout" } });
    }
    const tenantId = (await db().tenant.findUniqueOrThrow({ where: { slug: ES } })).id;
    const counters = await db().agentTraceCounter.findMany({ where: { tenantId, traceId: trace } });
    expect(counters.find((c) => c.counter === "spent")).toBeUndefined();

    // The 11th waits; the reviewer approves meanwhile.
    const started = Date.now();
    const waiting = send(status(id, 25), headers).then((r) => ({ r, at: Date.now() }));
    await new Promise((r) => setTimeout(r, 400));
    const p = await db().proposal.findUniqueOrThrow({ where: { id } });
    const reviewer = await actorFor(staffOf(ES, "reviewer").email);
    await approveProposal(reviewer, { proposalId: id, hash: p.hash });
    const approvedAt = Date.now();
    const { r, at } = await waiting;
    expect(r.content.code).toBe("result_pending");
    expect(r.content.result).toMatchObject({ status: "approved", phase: "executing", wait: { outcome: "changed" } });
    expect(at - approvedAt).toBeLessThan(1000);
    expect(at - started).toBeLessThan(25_000);

    // The conversation can still call tools.
    const after = await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headers);
    expect(after.content.code).toBe("ok");
  });

  it("without wait_seconds, identical polls still spend the repeat budget (waiting is what is spared)", async () => {
    const token = await tokenFor(ES, ana);
    const trace = freshTrace();
    const { id } = await prepared(4300, trace, token);
    const headers = headersFor({ token, trace });
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) codes.push((await send(status(id), headers)).content.code);
    expect(codes).toEqual([
      "approval_required",
      "approval_required",
      "approval_required",
      "approval_required",
      "approval_required",
      "limit_exceeded",
    ]);
  });

  it("waits still count in the end user's window (only the trace budget is spared)", async () => {
    const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
    await db().agentBudgetPolicy.create({
      data: { tenantId: tenant.id, maxCallsPerEndUserPerWindow: 3, windowSeconds: 3600 },
    });
    try {
      const token = await tokenFor(ES, pablo);
      const trace = freshTrace();
      const { number } = await freshCardOrder(4400, { prefix: "W", customer: pablo });
      const a = await send(
        anthropicCall("prepare_refund", { order_id: number, reason: "damaged_item" }),
        headersFor({ token, trace }),
      );
      const id = (a.content.result as { proposal_id: string }).proposal_id;
      const codes: string[] = [];
      for (let i = 0; i < 3; i++) codes.push((await send(status(id, 1), headersFor({ token, trace }))).content.code);
      // The prepare was the window's first call: two waits fit, the third is over the window's 3.
      expect(codes).toEqual(["approval_required", "approval_required", "limit_exceeded"]);
    } finally {
      await db().agentBudgetPolicy.delete({ where: { tenantId: tenant.id } });
    }
  });

  it("approval_required carries an absolute review_url and poll_after_seconds", async () => {
    const token = await tokenFor(ES, ana);
    const { id, answer } = await prepared(4500, freshTrace(), token);
    const result = answer.content.result!;
    expect(result.review_url).toMatch(new RegExp(`^https?://[^/]+/proposals/${id}$`));
    expect(result.poll_after_seconds).toBe(30);
    expect(String(result.next_step)).toContain("wait_seconds");
  });

  it("a proposal that is already final answers at once, without waiting", async () => {
    const token = await tokenFor(ES, ana);
    const { id } = await prepared(4600, freshTrace(), token);
    await db().proposal.update({ where: { id }, data: { status: "rejected", rejectionReason: "no" } });
    const started = Date.now();
    const r = await send(status(id, 25), headersFor({ token, trace: freshTrace() }));
    expect(r.content.code).toBe("rejected");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("another customer's proposal: not_found at once, nothing waited on", async () => {
    const { id } = await prepared(4700, freshTrace(), await tokenFor(ES, ana));
    const started = Date.now();
    const r = await send(status(id, 25), headersFor({ token: await tokenFor(ES, pablo), trace: freshTrace() }));
    expect(r.content.code).toBe("not_found");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("refuses wait_seconds outside 0–25 (exactly 25 is allowed; null answers at once)", async () => {
    const token = await tokenFor(ES, ana);
    const { id } = await prepared(4800, freshTrace(), token);
    const over = await send(status(id, 26), headersFor({ token, trace: freshTrace() }));
    expect(over.content.code).toBe("invalid_arguments");
    expect(JSON.stringify(over.content.error)).toContain("wait_seconds");
    expect((await send(status(id, -1), headersFor({ token, trace: freshTrace() }))).content.code).toBe(
      "invalid_arguments",
    );
    expect((await send(status(id, 1.5), headersFor({ token, trace: freshTrace() }))).content.code).toBe(
      "invalid_arguments",
    );
    const none = await send(status(id, null), headersFor({ token, trace: freshTrace() }));
    expect(none.content.code).toBe("approval_required");
    expect(none.content.result!.wait).toBeUndefined();
  });

  it("a pending proposal that expires during the wait answers expired at its expiry", async () => {
    const token = await tokenFor(ES, ana);
    const { id } = await prepared(4900, freshTrace(), token);
    await db().proposal.update({ where: { id }, data: { expiresAt: new Date(Date.now() + 1_500) } });
    const started = Date.now();
    const r = await send(status(id, 20), headersFor({ token, trace: freshTrace() }));
    expect(r.content.code).toBe("expired");
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("a superseded proposal answers with superseded_by, and a wait on it wakes when the reviewer edits it", async () => {
    const token = await tokenFor(ES, ana);
    const { id } = await prepared(5000, freshTrace(), token);
    const waiting = send(status(id, 25), headersFor({ token, trace: freshTrace() }));
    await new Promise((r) => setTimeout(r, 300));
    const p = await db().proposal.findUniqueOrThrow({ where: { id } });
    const reviewer = await actorFor(staffOf(ES, "reviewer").email);
    const edited = await editProposalAmount(reviewer, { proposalId: id, hash: p.hash, amountMinor: 4000 });
    const r = await waiting;
    expect(r.content.code).toBe("invalidated");
    expect(r.content.error).toMatchObject({
      superseded_by: { proposal_id: edited.proposalId, status: "pending_approval", amount: { minor: 4000 } },
    });
  });

  it("past the per-instance bound on waiters, the call answers at once and says so", async () => {
    const token = await tokenFor(ES, ana);
    const { id } = await prepared(5100, freshTrace(), token);
    await stopProposalChanges();
    process.env.REALTIME_MAX_WAITERS = "1";
    try {
      const first = send(status(id, 3), headersFor({ token, trace: freshTrace() }));
      await new Promise((r) => setTimeout(r, 300));
      const started = Date.now();
      const second = await send(status(id, 25), headersFor({ token, trace: freshTrace() }));
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(second.content.code).toBe("approval_required");
      expect(second.content.result).toMatchObject({ wait: { outcome: "too_many_waiters" }, poll_after_seconds: 30 });
      expect((await first).content.result).toMatchObject({ wait: { outcome: "timeout" } });
    } finally {
      delete process.env.REALTIME_MAX_WAITERS;
      await stopProposalChanges();
    }
  });
});
