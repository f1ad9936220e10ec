import "server-only";
import {
  executionStatus as E,
  settledExecutionStatuses,
  unsettledExecutionStatuses,
} from "@/lib/domain/execution-state";
import { proposalStatus as P, statesLeadingTo } from "@/lib/domain/proposal-state";
import { refundStatus, type RefundStatus } from "@/lib/domain/refund-state";
import { type Tx } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { lockOrderOfExecution } from "@/lib/server/proposals/locks";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import { enqueueJob } from "@/lib/server/jobs/enqueue";
import { executionTimings } from "@/lib/server/env";
import { notifyOpsOfInDoubt } from "@/lib/server/notifications/enqueue-notifications";
import type { CreateRefundResult, ProviderRefund } from "@/lib/server/payments/payment-provider";
import { transaction } from "@/lib/server/db/transaction";
import { asRefund, type AsRefund } from "@/lib/domain/refund-row";

const SYSTEM = { type: "system" as const, id: "worker", authMethod: "job" };

type Source = "send" | "reconcile" | "resend" | "webhook";

/**
 * Records what the provider said about an execution, as one guarded transaction. Final states are
 * never overwritten (a late or repeated answer about a settled execution changes nothing), so the
 * worker, the reconciler and the webhook can all report the same refund in any order.
 */
export async function applyProviderAnswer(input: {
  executionId: string;
  answer: CreateRefundResult;
  source: Source;
  traceId: string;
}): Promise<void> {
  const { answer } = input;
  await transaction(
    async (tx) => {
      // The order first (lib/server/proposals/locks.ts): the proposal's status and the order's ledger change.
      await lockOrderOfExecution(sqlOf(tx), input.executionId);
      if (answer.outcome === "succeeded" || answer.outcome === "pending") {
        await settleWithRefund(tx, input.executionId, answer.refund, input.source);
      } else if (answer.outcome === "failed") {
        await settle(
          tx,
          input.executionId,
          { status: E.failed, failureReason: answer.reason, providerRefundId: answer.refundId },
          input.source,
          {
            reason: answer.reason,
            code: answer.code,
          },
        );
      } else if (answer.outcome === "unknown") {
        const moved = await tx.execution.updateMany({
          where: { id: input.executionId, status: { in: [E.sending, E.unknown] } },
          data: { status: E.unknown, lastError: `${answer.cause}: ${answer.message}`.slice(0, 500) },
        });
        if (moved.count === 0) return;
        const ex = await tx.execution
          .findUniqueOrThrow({ where: { id: input.executionId }, include: { proposal: true } })
          .then(withRefund);
        await tx.proposal.updateMany({
          where: { id: ex.proposalId, status: P.executing },
          data: { status: P.needsReconciliation },
        });
        await audit(tx, ex, "execution:unknown", "result_pending", input.source, {
          cause: answer.cause,
          statusCode: answer.statusCode,
        });
        await enqueueJob(
          sqlOf(tx),
          "reconcile_execution",
          { executionId: ex.id },
          { runAt: new Date(Date.now() + executionTimings().reconcileDelayMs) },
        );
        // Ops hear of it (once per execution and person: the outbox's dedupe key), committed with the state.
        await notifyOpsOfInDoubt(tx, ex);
      }
    },
    { maxWait: 15_000, timeout: 15_000 },
  );
}

/** The provider has a refund for this execution: record it as what it is now. */
export async function settleWithRefund(
  tx: Tx,
  executionId: string,
  refund: ProviderRefund,
  source: Source,
): Promise<void> {
  // The order first (lib/server/proposals/locks.ts), for every caller (worker, reconciler, webhook).
  await lockOrderOfExecution(sqlOf(tx), executionId);
  if (refund.status === "succeeded") {
    await settle(tx, executionId, { status: E.succeeded, providerRefundId: refund.id }, source, {
      refundId: refund.id,
    });
  } else if (refund.status === "failed" || refund.status === "canceled") {
    await settle(
      tx,
      executionId,
      { status: E.failed, providerRefundId: refund.id, failureReason: refund.failureReason ?? refund.status },
      source,
      {
        refundId: refund.id,
        reason: refund.failureReason,
      },
    );
  } else {
    // Accepted, not settled yet: the money is committed at the provider; a webhook or the reconciler settles it.
    const moved = await tx.execution.updateMany({
      where: { id: executionId, status: { in: [...unsettledExecutionStatuses] } },
      // The provider has the refund: an earlier "no answer" error is no longer true.
      data: { status: E.pending, providerRefundId: refund.id, lastError: null },
    });
    if (moved.count === 0) return;
    const ex = await tx.execution
      .findUniqueOrThrow({ where: { id: executionId }, include: { proposal: true } })
      .then(withRefund);
    await tx.proposal.updateMany({
      where: { id: ex.proposalId, status: { in: [P.executing, P.needsReconciliation] } },
      data: { status: P.executing },
    });
    await upsertRefundRow(tx, ex, refund.id, refundStatus.pending);
    await audit(tx, ex, "execution:pending", "result_pending", source, { refundId: refund.id });
    await enqueueJob(
      sqlOf(tx),
      "reconcile_execution",
      { executionId: ex.id },
      { runAt: new Date(Date.now() + 60_000) },
    );
  }
}

async function settle(
  tx: Tx,
  executionId: string,
  data: { status: (typeof settledExecutionStatuses)[number]; providerRefundId?: string | null; failureReason?: string },
  source: Source,
  details: Record<string, unknown>,
): Promise<void> {
  const moved = await tx.execution.updateMany({
    where: { id: executionId, status: { in: [...unsettledExecutionStatuses] } },
    data: {
      status: data.status,
      providerRefundId: data.providerRefundId ?? undefined,
      failureReason: data.failureReason ?? null,
      settledAt: new Date(),
      // A success is the provider's last word: an earlier timeout or 5xx no longer describes this execution.
      ...(data.status === E.succeeded ? { lastError: null } : {}),
    },
  });
  if (moved.count === 0) return; // already settled: a repeated or late answer changes nothing
  const ex = await tx.execution
    .findUniqueOrThrow({ where: { id: executionId }, include: { proposal: true } })
    .then(withRefund);
  await tx.proposal.updateMany({
    where: { id: ex.proposalId, status: { in: statesLeadingTo(data.status) } },
    data: { status: data.status },
  });
  if (data.providerRefundId) await upsertRefundRow(tx, ex, data.providerRefundId, data.status);
  if (data.status === E.succeeded) await updateOrderStatus(tx, ex.proposal.orderId);
  await audit(tx, ex, `execution:${data.status}`, "ok", source, details);
}

type ExecutionWithProposal = {
  id: string;
  tenantId: string;
  proposal: {
    id: string;
    hash: string;
    orderId: string;
    paymentId: string;
    amountMinor: number;
    currency: string;
    traceId: string;
  };
};

/** Our own ledger of the refund (what "refunded" means for the next proposal of this order). */
async function upsertRefundRow(tx: Tx, ex: ExecutionWithProposal, providerRefundId: string, status: RefundStatus) {
  const existing = await tx.refund.findFirst({
    where: { providerRefundId, tenantId: ex.tenantId },
    select: { id: true },
  });
  if (existing) {
    await tx.refund.update({ where: { id: existing.id }, data: { status } });
    return;
  }
  await tx.refund.create({
    data: {
      tenantId: ex.tenantId,
      orderId: ex.proposal.orderId,
      paymentId: ex.proposal.paymentId,
      amountMinor: ex.proposal.amountMinor,
      currency: ex.proposal.currency,
      status,
      providerRefundId,
      reason: `proposal ${ex.proposal.id}`,
    },
  });
}

export async function updateOrderStatus(tx: Tx, orderId: string) {
  const order = await tx.order.findUniqueOrThrow({ where: { id: orderId } });
  // A cancelled order stays cancelled (as refreshOrderStatus): the refund that goes with a cancellation is paid after it.
  if (order.status === "cancelled") return;
  const refunded = await tx.refund.aggregate({
    where: { orderId, status: refundStatus.succeeded },
    _sum: { amountMinor: true },
  });
  const total = refunded._sum.amountMinor ?? 0;
  const status = total >= order.capturedMinor ? "refunded" : total > 0 ? "partially_refunded" : order.status;
  if (status !== order.status) await tx.order.update({ where: { id: orderId }, data: { status } });
}

async function audit(
  tx: Tx,
  ex: ExecutionWithProposal,
  action: string,
  outcome: string,
  source: Source,
  details: Record<string, unknown>,
) {
  await recordAuditEvent(sqlOf(tx), {
    tenantId: ex.tenantId,
    traceId: ex.proposal.traceId,
    actor: SYSTEM,
    action,
    outcome,
    proposal: { id: ex.proposal.id, hash: ex.proposal.hash },
    data: { executionId: ex.id, source, ...details },
    redaction: { clear: ["executionId", "source", "refundId", "reason", "code", "cause", "statusCode"] },
  });
}

/** An execution with its proposal as a refund's (this chain settles the payment provider's refunds). */
function withRefund<E extends { proposal: object }>(
  ex: E,
): Omit<E, "proposal"> & { proposal: AsRefund<E["proposal"]> } {
  return { ...ex, proposal: asRefund(ex.proposal) } as Omit<E, "proposal"> & { proposal: AsRefund<E["proposal"]> };
}
