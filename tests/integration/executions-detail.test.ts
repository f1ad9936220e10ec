// The ops screens' use cases against a real database and the real sandbox provider process: the execution
// detail (timeline from the execution's audit events, proposal summary, cross-tenant 404, role refusal),
// search by order / refund id / customer, counters and chart from one statement, and Last error cleared
// once the provider settles the refund.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxControl } from "@/provider-sandbox/control-client";
import { startSandboxProvider, type SandboxProvider } from "../support/sandbox-provider";
import { db } from "@/lib/server/db/client";
import { executeRefund } from "@/lib/server/executions/execute-refund";
import { reconcileExecution } from "@/lib/server/executions/reconcile-execution";
import { applyProviderAnswer } from "@/lib/server/executions/apply-provider-answer";
import { getExecutionDetail } from "@/lib/server/executions/get-execution-detail";
import { listExecutions } from "@/lib/server/executions/list-executions";
import { getExecutionOverview } from "@/lib/server/executions/get-execution-overview";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { checkExecutionNow } from "@/lib/server/executions/check-execution-now";
import type { ProviderRefund } from "@/lib/server/payments/payment-provider";
import { actorOf, approvedProposal, customerEmail } from "./audit-support";
import { ES, US, ana } from "./gateway-support";
import { prepareThroughGateway, sandboxCardOrder } from "./proposal-support";
import { asRefund } from "@/lib/domain/refund-row";

let sandbox: SandboxProvider;
let control: SandboxControl;

beforeAll(async () => {
  sandbox = await startSandboxProvider();
  control = sandbox.control;
});

afterAll(async () => {
  await sandbox?.stop();
});

/** A fresh paid card order of Ana's whose payment intent the sandbox knows; a proposal for it, approved. */
async function approvedAtSandbox(amountMinor: number) {
  const { number: orderNumber } = await sandboxCardOrder(control, amountMinor, "OPS");
  const proposal = await prepareThroughGateway(orderNumber);
  await approveProposal(await actorOf(ES, "reviewer"), { proposalId: proposal.id, hash: proposal.hash });
  return { proposal, orderNumber };
}

describe("execution detail: timeline of attempts, provider answers and reconciliations", () => {
  it("a 5xx, then Check now, then the reconciler's re-send: every step on the timeline, Last error cleared on success", async () => {
    const { proposal, orderNumber } = await approvedAtSandbox(2_610);
    await control.addFault({ kind: "fail_5xx", paymentIntent: proposal.recipientRef });
    expect(await executeRefund(proposal.id)).toBe("sent");
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: proposal.id } });
    expect(ex.status).toBe("unknown");
    expect(ex.lastError).toMatch(/server_error/);

    const ops = await actorOf(ES, "ops");
    const check = await checkExecutionNow(ops, { executionId: ex.id });
    expect(check).toMatchObject({ queued: true, reconciliations: 0 });
    expect(await reconcileExecution(ex.id)).toBe("resent");

    const detail = await getExecutionDetail(ops, { executionId: ex.id });
    expect(detail).toMatchObject({
      id: ex.id,
      status: "succeeded",
      attempts: 2,
      reconciliations: 1,
      lastError: null, // the earlier 5xx no longer describes this execution
      idempotencyKey: `refund-${proposal.id}`,
      providerRefundId: expect.stringMatching(/^re_/),
      proposal: {
        id: proposal.id,
        orderNumber,
        amountMinor: 2_610,
        currency: "EUR",
        customerId: ana,
        traceId: proposal.traceId,
        hash: proposal.hash,
      },
    });
    expect(detail.events.map((e) => [e.action, e.kind])).toEqual([
      ["execution:send", "send"],
      ["execution:unknown", "answer"],
      ["execution:check_now", "check"],
      ["execution:resend", "resend"],
      ["execution:succeeded", "answer"],
      ["execution:reconcile", "reconcile"],
    ]);
    const [send, unknown, checked, resend, succeeded, reconciled] = detail.events;
    expect(send).toMatchObject({ attempt: 1, actorType: "system" });
    expect(unknown).toMatchObject({
      source: "send",
      outcome: "result_pending",
      detail: expect.stringContaining("server_error"),
    });
    expect(checked).toMatchObject({ actorType: "staff", actorName: ops.name, status: "unknown" });
    expect(resend).toMatchObject({ attempt: 2, detail: "provider_has_no_refund" });
    expect(succeeded).toMatchObject({ source: "resend", refundId: detail.providerRefundId });
    // The finding Check now waits for: numbered after the count it was given, with the state it left.
    expect(reconciled).toMatchObject({
      finding: "resent",
      reconciliation: check.reconciliations + 1,
      status: "succeeded",
      outcome: "ok",
    });
  });

  it("a reconciliation the provider does not answer is on the timeline too (no_answer), and the execution stays in doubt", async () => {
    const { proposal } = await approvedAtSandbox(2_620);
    await control.addFault({ kind: "fail_5xx", on: "any", paymentIntent: proposal.recipientRef, once: false });
    await executeRefund(proposal.id);
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: proposal.id } });
    await expect(reconcileExecution(ex.id)).rejects.toThrow(/provider did not answer/);
    const detail = await getExecutionDetail(await actorOf(ES, "admin"), { executionId: ex.id });
    expect(detail.status).toBe("unknown");
    expect(detail.events.at(-1)).toMatchObject({
      action: "execution:reconcile",
      finding: "no_answer",
      status: "unknown",
      reconciliation: 1,
    });
    await control.clearFaults();
  });

  it("another tenant's execution is not found (no data); a random id likewise; a malformed id is invalid", async () => {
    const ex = await db().execution.findFirstOrThrow({ where: { tenant: { slug: ES } } });
    await expect(getExecutionDetail(await actorOf(US, "ops"), { executionId: ex.id })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(getExecutionDetail(await actorOf(US, "admin"), { executionId: ex.id })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(getExecutionDetail(await actorOf(ES, "ops"), { executionId: randomUUID() })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(getExecutionDetail(await actorOf(ES, "ops"), { executionId: "not-an-id" })).rejects.toMatchObject({
      code: "invalid_arguments",
    });
  });

  it("roles without execution access are refused before anything is read", async () => {
    const ex = await db().execution.findFirstOrThrow({ where: { tenant: { slug: ES } } });
    for (const role of ["reviewer", "auditor"] as const) {
      await expect(getExecutionDetail(await actorOf(ES, role), { executionId: ex.id })).rejects.toMatchObject({
        code: "permission_denied",
      });
    }
  });
});

describe("Last error is cleared once the provider settles or holds the refund", () => {
  const refund = (
    id: string,
    status: "succeeded" | "pending",
    proposalId: string,
    tenantId: string,
  ): ProviderRefund => ({
    id,
    paymentIntent: "pi_x",
    amountMinor: 1,
    currency: "EUR",
    status,
    failureReason: null,
    metadata: { proposalId, tenantId },
    createdAt: new Date(),
  });

  it("unknown (timeout) → succeeded: lastError null; unknown → pending: lastError null", async () => {
    for (const status of ["succeeded", "pending"] as const) {
      const { proposal } = await approvedProposal(ana, status === "succeeded" ? 2_630 : 2_640);
      const ex = await db().execution.create({
        data: {
          tenantId: proposal.tenantId,
          proposalId: proposal.id,
          idempotencyKey: `refund-${proposal.id}`,
          attempts: 1,
          status: "sending",
        },
      });
      await applyProviderAnswer({
        executionId: ex.id,
        answer: {
          outcome: "unknown",
          cause: "timeout",
          message: "no answer in 1500 ms",
          statusCode: null,
          requestId: null,
        },
        source: "send",
        traceId: "t",
      });
      expect((await db().execution.findUniqueOrThrow({ where: { id: ex.id } })).lastError).toBe(
        "timeout: no answer in 1500 ms",
      );
      const r = refund(`re_clear_${status}_${ex.id.slice(0, 8)}`, status, proposal.id, proposal.tenantId);
      await applyProviderAnswer({
        executionId: ex.id,
        answer: { outcome: status, refundId: r.id, refund: r, replayed: false, requestId: null },
        source: "reconcile",
        traceId: "t",
      });
      expect(await db().execution.findUniqueOrThrow({ where: { id: ex.id } })).toMatchObject({
        status,
        lastError: null,
      });
    }
  });
});

describe("search by order, refund id, customer", () => {
  it("finds by (part of) the order number, the provider refund id, the idempotency key, the customer's id or e-mail; in the tenant only", async () => {
    const ops = await actorOf(ES, "ops");
    const ex = await db().execution.findFirstOrThrow({
      where: { tenant: { slug: ES }, status: "succeeded", providerRefundId: { not: null } },
      include: { proposal: { include: { order: true } } },
    });
    const order = asRefund(ex.proposal).order;
    const ids = async (q: string, actor = ops) =>
      (await listExecutions(actor, { q, limit: 100 })).rows.map((r) => r.id);
    expect(await ids(order.number)).toEqual([ex.id]);
    expect(await ids(order.number.slice(4).toLowerCase())).toContain(ex.id);
    expect(await ids(ex.providerRefundId!)).toEqual([ex.id]);
    expect(await ids(ex.providerRefundId!.toUpperCase())).toEqual([ex.id]);
    expect(await ids(ex.idempotencyKey)).toEqual([ex.id]);
    const anas = await db().execution.count({
      where: { tenant: { slug: ES }, proposal: { order: { customerId: ana } } },
    });
    expect(await ids(ana)).toHaveLength(anas);
    expect(await ids(customerEmail(ES, "ana").toUpperCase())).toHaveLength(anas);
    expect(anas).toBeGreaterThanOrEqual(3);
    // Not a partial customer id or e-mail; LIKE wildcards are literal.
    expect(await ids(customerEmail(ES, "ana").slice(0, 5))).toEqual([]);
    expect(await ids("%")).toEqual([]);
    expect(await ids("_")).toEqual([]);
    // Combined with the state filter.
    expect(
      (await listExecutions(ops, { q: ana, state: "unknown", limit: 100 })).rows.every((r) => r.status === "unknown"),
    ).toBe(true);
    // Another tenant searching for this order, refund or customer finds nothing.
    const us = await actorOf(US, "ops");
    for (const q of [order.number, ex.providerRefundId!, ana, customerEmail(ES, "ana")])
      expect(await ids(q, us)).toEqual([]);
    await expect(listExecutions(ops, { q: "x".repeat(201) })).rejects.toMatchObject({ code: "invalid_arguments" });
  });

  it("sorts oldest first on request, pages without gaps either way", async () => {
    const ops = await actorOf(ES, "ops");
    const all = async (sort: "newest" | "oldest") => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await listExecutions(ops, { limit: 2, sort, ...(cursor ? { cursor } : {}) });
        seen.push(...page.rows.map((r) => r.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return seen;
    };
    const newest = await all("newest");
    const oldest = await all("oldest");
    expect(new Set(oldest).size).toBe(oldest.length);
    expect(oldest).toEqual([...newest].reverse());
    await expect(listExecutions(ops, { sort: "sideways" })).rejects.toMatchObject({ code: "invalid_arguments" });
  });
});

describe("counters and chart from one statement", () => {
  it("the counters are the chart's now point and match the in-doubt queue; counts add up to every execution of the tenant", async () => {
    // Cases where two separate definitions used to disagree: a fresh unknown (in the queue at once) and a
    // pending for 20 minutes (in doubt after 15), beside a pending for 1 minute (not yet).
    const made: Awaited<ReturnType<typeof approvedProposal>>["proposal"][] = [];
    for (const amount of [2_710, 2_720, 2_730]) made.push((await approvedProposal(ana, amount)).proposal);
    const mk = (p: (typeof made)[number], data: Record<string, unknown>) =>
      db().execution.create({
        data: { tenantId: p.tenantId, proposalId: p.id, idempotencyKey: `refund-${p.id}`, attempts: 1, ...data },
      });
    const freshUnknown = await mk(made[0]!, { status: "unknown", lastAttemptAt: new Date() });
    const longPending = await mk(made[1]!, {
      status: "pending",
      createdAt: new Date(Date.now() - 20 * 60_000),
      providerRefundId: `re_lp_${made[1]!.id}`,
    });
    const freshPending = await mk(made[2]!, {
      status: "pending",
      createdAt: new Date(Date.now() - 60_000),
      providerRefundId: `re_fp_${made[2]!.id}`,
    });

    const o = await getExecutionOverview(await actorOf(ES, "ops"));
    const now = o.chart.at(-1)!;
    expect(o.counters.inDoubt).toBe(now.inDoubt);
    expect(o.counters.oldestAgeSeconds).toBe(now.oldestAgeSeconds);
    expect(o.inDoubt).toHaveLength(now.inDoubt);
    const queue = new Map(o.inDoubt.map((r) => [r.id, r.why]));
    expect(queue.get(freshUnknown.id)).toBe("unknown");
    expect(queue.get(longPending.id)).toBe("long_pending");
    expect(queue.has(freshPending.id)).toBe(false);
    expect(o.counters.total).toBe(Object.values(o.counts).reduce((a, b) => a + b, 0));
    expect(o.counters.total).toBe(await db().execution.count({ where: { tenant: { slug: ES } } }));
    for (const [state, n] of Object.entries(o.counts)) {
      expect(n).toBe(await db().execution.count({ where: { tenant: { slug: ES }, status: state as "unknown" } }));
    }
    // Another tenant's overview counts none of these.
    const us = await getExecutionOverview(await actorOf(US, "ops"));
    expect(us.inDoubt.map((r) => r.id)).not.toContain(freshUnknown.id);
    expect(us.counters.total).toBe(await db().execution.count({ where: { tenant: { slug: US } } }));
  });
});
