// Manual payouts (issue #36 item 1): a refund of a payment no connected provider holds (`provider: "manual"`:
// bank transfer, store credit) is never sent to a payment provider. After approval the execution waits as
// `awaiting_payout`, the agent reads `result_pending` / `awaiting_payout`, ops record the transfer's reference,
// and at or above the tenant's four-eyes threshold a second person confirms it. No sandbox provider runs in this
// file: a call to a provider would fail, so every green line here is also proof that none was made.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { executeRefund } from "@/lib/server/executions/execute-refund";
import { reconcileExecution } from "@/lib/server/executions/reconcile-execution";
import { confirmManualPayout, recordManualPayout } from "@/lib/server/executions/record-manual-payout";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { getRefundDetail } from "@/lib/server/proposals/get-proposal";
import { executionFacts } from "@/lib/domain/evidence-pack";
import { getExecutionOverview } from "@/lib/server/executions/get-execution-overview";
import { getExecutionDetail } from "@/lib/server/executions/get-execution-detail";
import { actorFor, staffOf } from "../support/actors";
import { US, anthropicCall, freshTrace, headersFor, john, send, tokenFor, webKey } from "./gateway-support";
import { freshCardOrder, prepareThroughGateway } from "./proposal-support";

const reviewer = (n = 0) => actorFor(staffOf(US, "reviewer", n).email);
const ops = (n = 0) => actorFor(staffOf(US, "ops", n).email); // 0: Olivia Ops, 1: Alex Admin (admin + ops)

/** A fresh order of John's (shop-us, USD 1,000.00 four-eyes threshold) paid by bank transfer. */
async function manualOrder(amountMinor: number) {
  const o = await freshCardOrder(amountMinor, { tenant: US, customer: john, prefix: "MP", holderName: "John Smith" });
  await db().payment.updateMany({
    where: { orderId: o.orderId },
    data: {
      provider: "manual",
      method: "bank_transfer",
      display: "IBAN US•• •••• 3000",
      providerPaymentRef: `bt_${o.number}`,
    },
  });
  return o;
}

/** Prepared by the agent, approved by as many reviewers as it needs, executed by the worker's job. */
async function awaitingPayout(amountMinor: number) {
  const o = await manualOrder(amountMinor);
  const p = await prepareThroughGateway(o.number, US, john);
  for (let n = 0; n < p.requiredApprovals; n++)
    await approveProposal(await reviewer(n), { proposalId: p.id, hash: p.hash });
  expect(await executeRefund(p.id)).toBe("awaiting_payout");
  const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: p.id } });
  return { ...o, proposal: p, executionId: ex.id };
}

const agentStatus = async (proposalId: string) =>
  send(
    anthropicCall("get_refund_status", { proposal_id: proposalId }),
    headersFor({ key: webKey(US), token: await tokenFor(US, john), trace: freshTrace() }),
  );

describe("manual payouts", () => {
  it("the reviewer is told before approving that ops pay it out by hand (from the hashed source)", async () => {
    const o = await manualOrder(4_200);
    const p = await prepareThroughGateway(o.number, US, john);
    expect(p.sourceProvider).toBe("manual");
    expect((await getRefundDetail(await reviewer(), p.id)).payout).toBe("manual");
    const card = await freshCardOrder(4_200, { tenant: US, customer: john, prefix: "MPC" });
    const cardProposal = await db().proposal.create({
      data: {
        ...p,
        id: crypto.randomUUID(),
        orderId: card.orderId,
        subject: { type: "order", ref: card.orderId },
        params: undefined,
        source: undefined,
        sourceProvider: "stripe",
        supersedesId: null,
        orderItems: p.orderItems ?? undefined,
      },
    });
    expect((await getRefundDetail(await reviewer(), cardProposal.id)).payout).toBe("provider");
  });

  it("is never sent: the execution waits for ops and the agent reads awaiting_payout", async () => {
    const { proposal, executionId } = await awaitingPayout(4_500);
    const ex = await db().execution.findUniqueOrThrow({ where: { id: executionId } });
    expect(ex).toMatchObject({ status: "awaiting_payout", attempts: 0, providerRefundId: null });
    expect((await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } })).status).toBe("executing");
    const a = await agentStatus(proposal.id);
    expect(a.content.code).toBe("result_pending");
    expect(a.content.result).toMatchObject({ phase: "awaiting_payout", poll_after_seconds: 300 });
    expect(String((a.content.result as { next_step: string }).next_step)).toMatch(/awaiting payout/i);
    // The job running again changes nothing; the reconciler has no provider to ask and leaves it alone.
    expect(await executeRefund(proposal.id)).toBe("already_started");
    expect(await reconcileExecution(executionId)).toBe("awaiting_payout");
    expect((await db().execution.findUniqueOrThrow({ where: { id: executionId } })).status).toBe("awaiting_payout");
    // Ops see it under "To pay out", never as in doubt, however old it is.
    await sql`UPDATE "Execution" SET "createdAt" = now() - interval '2 days' WHERE id = ${executionId}::uuid`.execute(
      sqlPool(),
    );
    const o = await getExecutionOverview(await ops());
    expect(o.toPayOut).toContainEqual(
      expect.objectContaining({ id: executionId, amountMinor: 4_500, awaitingConfirmation: false }),
    );
    expect(o.inDoubt.map((r) => r.id)).not.toContain(executionId);
    expect((await getExecutionDetail(await ops(), { executionId })).payout).toMatchObject({
      reference: null,
      needsSecondPerson: false,
      recordedByViewer: false,
    });
  });

  it("below four-eyes, one ops member's recorded transfer settles it: ledger, order, agent and audit follow", async () => {
    const { proposal, executionId, orderId } = await awaitingPayout(4_500);
    const olivia = await ops(0);
    const r = await recordManualPayout(olivia, { executionId, reference: "  SEPA-2026-12-04-0001 " });
    expect(r).toEqual({ executionId, status: "succeeded", reference: "SEPA-2026-12-04-0001" });
    const ex = await db().execution.findUniqueOrThrow({ where: { id: executionId } });
    expect(ex).toMatchObject({
      status: "succeeded",
      payoutReference: "SEPA-2026-12-04-0001",
      payoutRecordedById: olivia.userId,
      payoutConfirmedById: null,
    });
    expect(ex.settledAt).not.toBeNull();
    expect((await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } })).status).toBe("succeeded");
    const ledger = await db().refund.findMany({ where: { orderId } });
    expect(ledger).toEqual([expect.objectContaining({ amountMinor: 4_500, status: "succeeded", origin: "local" })]);
    expect((await db().order.findUniqueOrThrow({ where: { id: orderId } })).status).toBe("refunded");
    expect((await agentStatus(proposal.id)).content.code).toBe("ok");
    const events = await db().auditEvent.findMany({
      where: { proposalId: proposal.id, action: { startsWith: "execution:" } },
      orderBy: { occurredAt: "asc" },
    });
    expect(events.map((e) => e.action)).toEqual(["execution:awaiting_payout", "execution:payout_recorded"]);
    expect(events[1]).toMatchObject({ actorType: "staff", actorId: olivia.userId, traceId: proposal.traceId });
    // The evidence pack's execution facts carry who recorded it and the reference.
    expect(executionFacts(ex).payout).toMatchObject({ reference: "SEPA-2026-12-04-0001", recordedBy: olivia.userId });
    // Recording again is refused; the recorded reference stays.
    await expect(recordManualPayout(olivia, { executionId, reference: "OTHER-REF" })).rejects.toMatchObject({
      code: "permission_denied",
    });
  });

  it("at or above four-eyes a second person confirms; the one who recorded it cannot", async () => {
    const { proposal, executionId } = await awaitingPayout(150_000);
    expect(proposal.requiredApprovals).toBe(2);
    const [olivia, alex] = [await ops(0), await ops(1)];
    await expect(confirmManualPayout(alex, { executionId })).rejects.toMatchObject({ code: "permission_denied" });
    expect(await recordManualPayout(olivia, { executionId, reference: "ACH-991" })).toMatchObject({
      status: "awaiting_confirmation",
    });
    expect((await db().execution.findUniqueOrThrow({ where: { id: executionId } })).status).toBe("awaiting_payout");
    expect((await agentStatus(proposal.id)).content.result).toMatchObject({ phase: "awaiting_payout" });
    await expect(confirmManualPayout(olivia, { executionId })).rejects.toMatchObject({
      code: "permission_denied",
      details: { reason: "same_person" },
    });
    expect(await confirmManualPayout(alex, { executionId })).toEqual({
      executionId,
      status: "succeeded",
      reference: "ACH-991",
    });
    const ex = await db().execution.findUniqueOrThrow({ where: { id: executionId } });
    expect(ex).toMatchObject({
      status: "succeeded",
      payoutRecordedById: olivia.userId,
      payoutConfirmedById: alex.userId,
    });
    expect(executionFacts(ex).payout).toMatchObject({ recordedBy: olivia.userId, confirmedBy: alex.userId });
    await expect(confirmManualPayout(alex, { executionId })).rejects.toMatchObject({ code: "permission_denied" });
  });

  it("the database refuses a confirmation by the person who recorded it, whatever path writes it", async () => {
    const { executionId } = await awaitingPayout(4_000);
    const olivia = await ops(0);
    await expect(
      sql`UPDATE "Execution" SET "payoutRecordedById" = ${olivia.userId}::uuid, "payoutConfirmedById" = ${olivia.userId}::uuid
          WHERE id = ${executionId}::uuid`.execute(sqlPool()),
    ).rejects.toThrow(/Execution_payout_four_eyes/);
  });

  it("only ops of the execution's own tenant record, with a printable reference", async () => {
    const { executionId } = await awaitingPayout(3_000);
    await expect(recordManualPayout(await reviewer(), { executionId, reference: "REF-1" })).rejects.toMatchObject({
      code: "permission_denied",
    });
    const esOps = await actorFor(staffOf("tienda-es", "ops").email);
    await expect(recordManualPayout(esOps, { executionId, reference: "REF-1" })).rejects.toMatchObject({
      code: "not_found",
    });
    for (const reference of ["", "ab", "x".repeat(101), "REF\u0000X", "REF\nX"])
      await expect(recordManualPayout(await ops(), { executionId, reference })).rejects.toMatchObject({
        code: "invalid_arguments",
      });
    expect((await db().execution.findUniqueOrThrow({ where: { id: executionId } })).payoutRecordedById).toBeNull();
  });
});
