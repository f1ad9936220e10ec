import "server-only";
import { executionStatus as E, payoutNeedsSecondPerson } from "@/lib/domain/execution-state";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { proposalStatus as P } from "@/lib/domain/proposal-state";
import { refundStatus } from "@/lib/domain/refund-state";
import { parseInput } from "@/lib/domain/validation";
import { confirmPayoutInput, recordPayoutInput } from "@/lib/schemas/executions";
import { type Tx } from "@/lib/server/db/client";
import { sqlOf, sql } from "@/lib/server/db/sql";
import { transaction } from "@/lib/server/db/transaction";
import { recordStaffEvent } from "@/lib/server/audit/record-event";
import type { Actor } from "@/lib/server/auth/actor";
import { lockOrderOfExecution } from "@/lib/server/proposals/locks";
import { updateOrderStatus } from "./apply-provider-answer";

export type PayoutResult = {
  executionId: string;
  /** `awaiting_confirmation`: recorded, a second person must confirm it; `succeeded`: the refund is paid. */
  status: "awaiting_confirmation" | "succeeded";
  reference: string;
};

type LockedPayout = {
  id: string;
  tenantId: string;
  status: string;
  payoutReference: string | null;
  payoutRecordedById: string | null;
  proposalId: string;
  hash: string;
  traceId: string;
  orderId: string;
  paymentId: string;
  amountMinor: number;
  currency: string;
  requiredApprovals: number;
  threshold: number | null;
};

/**
 * The order's row first (lib/server/proposals/locks.ts), then the execution's, scoped to the actor's tenant: another
 * tenant's execution is simply not found.
 */
async function lockPayout(tx: Tx, tenantId: string, executionId: string): Promise<LockedPayout> {
  await lockOrderOfExecution(sqlOf(tx), executionId); // the one lock order: order, then proposal, then execution
  const [row] = (
    await sql<LockedPayout>`
      SELECT e.id, e."tenantId", e.status::text AS status, e."payoutReference", e."payoutRecordedById",
             p.id AS "proposalId", p.hash, p."traceId", p."orderId", p."paymentId", p."amountMinor", p.currency,
             p."requiredApprovals", t."dualApprovalThresholdMinor" AS threshold
      FROM "Execution" e
      JOIN "Proposal" p ON p.id = e."proposalId"
      JOIN "Tenant" t ON t.id = e."tenantId"
      WHERE e.id = ${executionId}::uuid AND e."tenantId" = ${tenantId}::uuid
      FOR UPDATE OF e`.execute(sqlOf(tx))
  ).rows;
  if (!row) throw new AppError("not_found", "No such execution in your organisation.");
  if (row.status !== E.awaitingPayout)
    throw new AppError("permission_denied", "This execution is not waiting for a payout.", {
      reason: "payout_state",
      status: row.status,
    });
  return row;
}

/**
 * Ops record that they paid a manual payment's refund out (bank transfer, store credit) with the transfer's
 * reference. Below four-eyes that settles it; at or above, the execution keeps waiting until a second person
 * confirms (confirmManualPayout). Recording twice is refused: a recorded reference is changed by nobody.
 */
export async function recordManualPayout(actor: Actor, raw: unknown): Promise<PayoutResult> {
  assertCan(actor.roles, "executions:payout");
  const input = parseInput(recordPayoutInput, raw, "Not a payout.");
  return transaction(
    async (tx) => {
      const p = await lockPayout(tx, actor.tenantId, input.executionId);
      if (p.payoutRecordedById)
        throw new AppError("permission_denied", "This payout was already recorded; a second person confirms it.", {
          reason: "payout_recorded",
        });
      const now = new Date();
      await tx.execution.updateMany({
        where: { id: p.id, status: E.awaitingPayout, payoutRecordedById: null },
        data: { payoutReference: input.reference, payoutRecordedById: actor.userId, payoutRecordedAt: now },
      });
      const second = payoutNeedsSecondPerson(p, p.threshold);
      await recordStaffEvent(sqlOf(tx), actor, {
        traceId: p.traceId,
        action: "execution:payout_recorded",
        outcome: second ? "result_pending" : "ok",
        proposal: { id: p.proposalId, hash: p.hash },
        data: { executionId: p.id, reference: input.reference, secondPersonNeeded: second },
        redaction: { clear: ["executionId", "reference", "secondPersonNeeded"] },
      });
      if (!second) await settlePayout(tx, p, input.reference, now);
      return { executionId: p.id, status: second ? "awaiting_confirmation" : "succeeded", reference: input.reference };
    },
    { maxWait: 10_000, timeout: 15_000 },
  );
}

/** A second person confirms a recorded payout (four-eyes): never the one who recorded it. */
export async function confirmManualPayout(actor: Actor, raw: unknown): Promise<PayoutResult> {
  assertCan(actor.roles, "executions:payout");
  const input = parseInput(confirmPayoutInput, raw, "Not a payout.");
  return transaction(
    async (tx) => {
      const p = await lockPayout(tx, actor.tenantId, input.executionId);
      if (!p.payoutRecordedById || !p.payoutReference)
        throw new AppError("permission_denied", "Nobody has recorded this payout yet.", { reason: "payout_state" });
      if (p.payoutRecordedById === actor.userId)
        throw new AppError(
          "permission_denied",
          "You recorded this payout: another person on the ops team must confirm it (four eyes).",
          { reason: "same_person" },
        );
      const now = new Date();
      await tx.execution.updateMany({
        where: { id: p.id, status: E.awaitingPayout, payoutConfirmedById: null },
        data: { payoutConfirmedById: actor.userId, payoutConfirmedAt: now },
      });
      await recordStaffEvent(sqlOf(tx), actor, {
        traceId: p.traceId,
        action: "execution:payout_confirmed",
        outcome: "ok",
        proposal: { id: p.proposalId, hash: p.hash },
        data: { executionId: p.id, reference: p.payoutReference, recordedBy: p.payoutRecordedById },
        redaction: { clear: ["executionId", "reference", "recordedBy"] },
      });
      await settlePayout(tx, p, p.payoutReference, now);
      return { executionId: p.id, status: "succeeded", reference: p.payoutReference };
    },
    { maxWait: 10_000, timeout: 15_000 },
  );
}

/**
 * The refund is paid: the execution succeeds (guarded), the proposal follows, the ledger gets the refund (keyed by
 * the execution, so it is entered once) and the order's status follows what was refunded.
 */
async function settlePayout(tx: Tx, p: LockedPayout, reference: string, now: Date): Promise<void> {
  const moved = await tx.execution.updateMany({
    where: { id: p.id, status: E.awaitingPayout },
    data: { status: E.succeeded, settledAt: now, providerRefundId: `payout_${p.id}` },
  });
  if (moved.count !== 1) throw new Error("execution changed state under its row lock");
  await tx.proposal.updateMany({ where: { id: p.proposalId, status: P.executing }, data: { status: P.succeeded } });
  await tx.refund.create({
    data: {
      tenantId: p.tenantId,
      orderId: p.orderId,
      paymentId: p.paymentId,
      amountMinor: p.amountMinor,
      currency: p.currency,
      status: refundStatus.succeeded,
      providerRefundId: `payout_${p.id}`,
      reason: `proposal ${p.proposalId}; manual payout ${reference}`.slice(0, 500),
    },
  });
  await updateOrderStatus(tx, p.orderId);
}
