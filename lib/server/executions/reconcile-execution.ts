import "server-only";
import { randomUUID } from "node:crypto";
import { executionStatus as E, isExecutionSettled } from "@/lib/domain/execution-state";
import { db, type Tx } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { recordAuditEvent, type AuditEventInput } from "@/lib/server/audit/record-event";
import { paymentProviderFor } from "@/lib/server/payments/get-payment-provider";
import { applyProviderAnswer, settleWithRefund } from "./apply-provider-answer";
import { executionTimings } from "@/lib/server/env";
import { transaction } from "@/lib/server/db/transaction";
import { asRefund } from "@/lib/domain/refund-row";

/** Thrown to have the job run again later (graphile-worker's backoff). */
export class RetryLater extends Error {}

export type ReconcileOutcome = "settled" | "already_settled" | "resent" | "still_pending" | "awaiting_payout";

/** What one reconciliation run found, as its `execution:reconcile` audit event records it (the ops timeline). */
type ReconcileFinding = "settled" | "still_pending" | "resent" | "no_answer" | "in_flight";

type Reconciled = { id: string; tenantId: string; proposalId: string; proposal: { hash: string; traceId: string } };

/** An event of the reconciler about one execution, in its proposal's agent trace. */
function recordReconcilerEvent(
  tx: Tx,
  ex: Reconciled,
  event: Pick<AuditEventInput, "action" | "outcome" | "data" | "redaction">,
) {
  return recordAuditEvent(sqlOf(tx), {
    ...event,
    tenantId: ex.tenantId,
    traceId: ex.proposal.traceId,
    actor: { type: "system", id: "reconciler", authMethod: "job" },
    proposal: { id: ex.proposalId, hash: ex.proposal.hash },
  });
}

/**
 * One event per reconciliation run that reached a finding, numbered like `Execution.reconciliations`, with
 * the execution's state after it: "Check now" waits for the first one numbered after its click.
 */
async function recordFinding(
  tx: Tx,
  ex: Reconciled,
  reconciliation: number,
  finding: ReconcileFinding,
  detail?: string,
): Promise<void> {
  const now = await tx.execution.findUniqueOrThrow({ where: { id: ex.id }, select: { status: true } });
  await recordReconcilerEvent(tx, ex, {
    action: "execution:reconcile",
    outcome: isExecutionSettled(now.status) ? "ok" : "result_pending",
    data: { executionId: ex.id, reconciliation, finding, status: now.status, ...(detail ? { cause: detail } : {}) },
    redaction: { clear: ["executionId", "reconciliation", "finding", "status", "cause"] },
  });
}

/** Records the finding, then asks graphile-worker to run the job again later. */
async function retryLater(
  ex: Reconciled,
  reconciliation: number,
  finding: "no_answer" | "in_flight",
  message: string,
  cause?: string,
): Promise<never> {
  await transaction((tx) => recordFinding(tx, ex, reconciliation, finding, cause));
  throw new RetryLater(message);
}

/**
 * Settles an execution whose outcome is unknown (timeout, 5xx, dropped connection, a crash after
 * sending) or still pending at the provider. It always asks the provider first, by payment intent and
 * the proposal id in the refund's metadata:
 * - the provider has the refund → record it as it is (succeeded / failed / pending);
 * - the provider answers, and has none → re-send with the *same* idempotency key (never a new key);
 * - the provider does not answer → try again later.
 * A manual payout (`awaiting_payout`) is never reconciled: no provider holds it; ops record it.
 * A fresh `sending` (the worker may still be waiting for the provider) is left alone until stale.
 */
export async function reconcileExecution(executionId: string): Promise<ReconcileOutcome> {
  const found = await db().execution.findUnique({ where: { id: executionId }, include: { proposal: true } });
  // Executions so far are refunds' (the payment provider's): the proposal has the refund's columns.
  const ex = found && { ...found, proposal: asRefund<typeof found.proposal>(found.proposal) };
  if (!ex || isExecutionSettled(ex.status)) return "already_settled";
  // A manual payout has no provider to ask (nor to re-send to): ops settle it by recording the transfer.
  if (ex.status === E.awaitingPayout) return "awaiting_payout";
  const provider = await paymentProviderFor(ex.tenantId);
  const { reconciliations: n } = await db().execution.update({
    where: { id: ex.id },
    data: { reconciliations: { increment: 1 } },
    select: { reconciliations: true },
  });

  if (
    ex.status === E.sending &&
    ex.lastAttemptAt &&
    Date.now() - ex.lastAttemptAt.getTime() < executionTimings().staleSendingMs
  ) {
    return retryLater(ex, n, "in_flight", "the send may still be in flight");
  }

  if (ex.status === E.pending && ex.providerRefundId) {
    const found = await provider.retrieveRefund(ex.providerRefundId);
    if (found.outcome === "unknown")
      return retryLater(ex, n, "no_answer", `provider did not answer: ${found.cause}`, found.cause);
    if (found.outcome === "found") {
      const outcome =
        found.refund.status === "pending" || found.refund.status === "requires_action" ? "still_pending" : "settled";
      await transaction(async (tx) => {
        await settleWithRefund(tx, ex.id, found.refund, "reconcile");
        await recordFinding(tx, ex, n, outcome);
      });
      return outcome;
    }
  }

  const search = await provider.findRefunds({ paymentIntent: ex.proposal.recipientRef, proposalId: ex.proposalId });
  if (search.outcome === "unknown")
    return retryLater(ex, n, "no_answer", `provider did not answer: ${search.cause}`, search.cause);
  const [refund, ...others] = search.refunds;
  if (refund) {
    const outcome = refund.status === "pending" || refund.status === "requires_action" ? "still_pending" : "settled";
    await transaction(async (tx) => {
      if (others.length > 0) {
        // More than one refund for one proposal would be a duplicate effect: say so loudly.
        await recordReconcilerEvent(tx, ex, {
          action: "execution:duplicate_detected",
          outcome: "internal_error",
          data: { refundIds: search.refunds.map((r) => r.id) },
          redaction: { clear: ["refundIds"] },
        });
      }
      await settleWithRefund(tx, ex.id, refund, "reconcile");
      await recordFinding(tx, ex, n, outcome);
    });
    return outcome;
  }

  // The provider answered and has no refund for this proposal: re-send with the same key. The guarded
  // update makes concurrent reconcilers agree on one re-send (and the key would make a second one a replay).
  const claimed = await transaction(async (tx) => {
    const moved = await tx.execution.updateMany({
      where: { id: ex.id, attempts: ex.attempts, status: { in: [E.unknown, E.sending] } },
      data: { attempts: { increment: 1 }, status: E.sending, lastAttemptAt: new Date() },
    });
    if (moved.count !== 1) return false;
    await recordReconcilerEvent(tx, ex, {
      action: "execution:resend",
      outcome: "result_pending",
      data: {
        executionId: ex.id,
        idempotencyKey: ex.idempotencyKey,
        attempt: ex.attempts + 1,
        because: "provider_has_no_refund",
      },
      redaction: { clear: ["executionId", "idempotencyKey", "attempt", "because"] },
    });
    return true;
  });
  if (!claimed) return "already_settled";
  const answer = await provider.createRefund({
    paymentIntent: ex.proposal.recipientRef,
    amountMinor: ex.proposal.amountMinor,
    currency: ex.proposal.currency,
    idempotencyKey: ex.idempotencyKey,
    metadata: { proposalId: ex.proposalId, tenantId: ex.tenantId },
  });
  await applyProviderAnswer({ executionId: ex.id, answer, source: "resend", traceId: randomUUID() });
  await transaction((tx) => recordFinding(tx, ex, n, "resent"));
  return "resent";
}
