import "server-only";
import { randomUUID } from "node:crypto";
import { executionStatus, refundIdempotencyKey } from "@/lib/domain/execution-state";
import { proposalStatus as P } from "@/lib/domain/proposal-state";
import { type Tx } from "@/lib/server/db/client";
import { sqlOf, sql } from "@/lib/server/db/sql";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import { enqueueJob } from "@/lib/server/jobs/enqueue";
import { paymentProviderFor } from "@/lib/server/payments/get-payment-provider";
import { lockProposal, orderMismatch } from "@/lib/server/proposals/proposal-guards";
import { approvalProblem, endApprovedProposal } from "./revalidate-approved";
import { refundableLeftLive } from "@/lib/server/proposals/refundable-left";
import { applyProviderAnswer } from "./apply-provider-answer";
import { executionTimings } from "@/lib/server/env";
import { transaction } from "@/lib/server/db/transaction";
import { asRefund } from "@/lib/domain/refund-row";

const SYSTEM = { type: "system" as const, id: "worker", authMethod: "job" };

/** The idempotency key of a proposal's refund: deterministic, so no second key can ever exist for it. */

export type ExecuteOutcome = "sent" | "awaiting_payout" | "not_approved" | "already_started" | "revalidation_failed";

/**
 * Executes an approved proposal at most once (the `execute_refund` job):
 *
 * 1. In one transaction, under the proposal's row lock: revalidate (tenant active; enough approvals,
 *    each still bound to the current hash and younger than the tenant's maximum approval age; the
 *    stored hash still recomputes; the order still allows the amount), then commit the Execution row
 *    with its idempotency key and move the proposal to `executing`. The unique proposalId and key make
 *    a second execution impossible, whatever the number of workers or job runs.
 * 2. Call the provider with that key.
 * 3. Record the answer: succeeded / pending / failed, or unknown → `needs_reconciliation` and a
 *    reconcile job. A crash between 2 and 3 leaves the execution `sending`: the reconciler treats a
 *    stale `sending` like `unknown` and asks the provider first — never a blind re-send.
 *
 * A payment no connected provider holds (`manual`: bank transfer, store credit) is never sent to a provider:
 * step 1 commits the execution as `awaiting_payout` and ops pay it out and record the transfer
 * (record-manual-payout.ts).
 */
export async function executeRefund(proposalId: string): Promise<ExecuteOutcome> {
  const traceId = randomUUID().replace(/-/g, "");
  const prepared = await transaction((tx) => begin(tx, proposalId, traceId), {
    maxWait: 15_000,
    timeout: 15_000,
  });
  if (prepared.kind !== "send") return prepared.kind;

  // The tenant's provider was opened a moment ago by the live read in begin() (cached), so this does not fail
  // for a reason begin() did not see; if it throws anyway, the execution stays `sending` for the reconciler.
  const provider = await paymentProviderFor(prepared.tenantId);
  const answer = await provider.createRefund({
    paymentIntent: prepared.paymentIntent,
    amountMinor: prepared.amountMinor,
    currency: prepared.currency,
    idempotencyKey: prepared.idempotencyKey,
    metadata: { proposalId, tenantId: prepared.tenantId },
  });
  await applyProviderAnswer({ executionId: prepared.executionId, answer, source: "send", traceId: prepared.traceId });
  return "sent";
}

type Begin =
  | {
      kind: "send";
      executionId: string;
      idempotencyKey: string;
      paymentIntent: string;
      amountMinor: number;
      currency: string;
      tenantId: string;
      traceId: string;
    }
  | { kind: "awaiting_payout" | "not_approved" | "already_started" | "revalidation_failed" };

async function begin(tx: Tx, proposalId: string, traceId: string): Promise<Begin> {
  const [row] = (
    await sql<{ tenantId: string }>`SELECT "tenantId" FROM "Proposal" WHERE id = ${proposalId}::uuid`.execute(sqlOf(tx))
  ).rows;
  if (!row) return { kind: "not_approved" };
  const locked = await lockProposal(tx, row.tenantId, proposalId);
  if (!locked) return { kind: "not_approved" };
  // This chain pays refunds through the payment provider: the proposal is a refund's, with its columns.
  const p = asRefund(locked);
  if (await tx.execution.findUnique({ where: { proposalId }, select: { id: true } }))
    return { kind: "already_started" };
  if (p.status !== P.approved) return { kind: "not_approved" };

  const now = new Date();
  let problem = (await approvalProblem(tx, p, now)) ?? (await orderMismatch(tx, p));
  if (!problem) problem = await providerMismatch(tx, p, now);
  if (problem) {
    // An expired approval is never executed: the proposal ends here and a new one is needed.
    await endApprovedProposal(tx, p, problem, now);
    return { kind: "revalidation_failed" };
  }

  const idempotencyKey = refundIdempotencyKey(p.id);
  const manual = p.payment.provider === "manual";
  const execution = await startExecution(tx, p, { manual, idempotencyKey, now, traceId });
  if (manual) return { kind: "awaiting_payout" };
  // If this worker dies right after the provider call, the reconciler picks the execution up.
  await enqueueJob(
    sqlOf(tx),
    "reconcile_execution",
    { executionId: execution.id },
    { runAt: new Date(now.getTime() + executionTimings().staleSendingMs) },
  );
  return {
    kind: "send",
    executionId: execution.id,
    idempotencyKey,
    paymentIntent: p.recipientRef,
    amountMinor: p.amountMinor,
    currency: p.currency,
    tenantId: p.tenantId,
    traceId: p.traceId,
  };
}

/**
 * Commits the execution with its idempotency key (the unique key makes a second execution impossible), moves the
 * proposal to `executing` under its row lock, and records it. A provider refund starts as `sending` (attempt 1);
 * a manual payment — no provider holds it, so nothing is sent — waits as `awaiting_payout` until ops record the
 * transfer (record-manual-payout.ts); it gets no reconcile job, and the sweep never picks that state up.
 */
async function startExecution(
  tx: Tx,
  p: { id: string; tenantId: string; hash: string; traceId: string; amountMinor: number; currency: string },
  opts: { manual: boolean; idempotencyKey: string; now: Date; traceId: string },
): Promise<{ id: string }> {
  const { manual, idempotencyKey } = opts;
  const execution = await tx.execution.create({
    data: {
      tenantId: p.tenantId,
      proposalId: p.id,
      idempotencyKey,
      ...(manual
        ? { status: executionStatus.awaitingPayout }
        : { status: executionStatus.sending, attempts: 1, lastAttemptAt: opts.now }),
    },
  });
  const moved = await tx.proposal.updateMany({
    where: { id: p.id, status: P.approved },
    data: { status: P.executing },
  });
  if (moved.count !== 1) throw new Error("proposal changed state under its row lock");
  await recordAuditEvent(sqlOf(tx), {
    tenantId: p.tenantId,
    traceId: p.traceId,
    actor: SYSTEM,
    action: manual ? "execution:awaiting_payout" : "execution:send",
    outcome: "result_pending",
    proposal: { id: p.id, hash: p.hash },
    data: {
      executionId: execution.id,
      idempotencyKey,
      ...(manual ? {} : { attempt: 1 }),
      amountMinor: p.amountMinor,
      currency: p.currency,
      workerTrace: opts.traceId,
    },
    redaction: { clear: ["executionId", "idempotencyKey", "attempt", "amountMinor", "currency", "workerTrace"] },
  });
  return execution;
}

/**
 * The provider as the truth, once more right before paying: when less is left at the provider (refunds made
 * elsewhere since approval, counted with this product's other open proposals) than this proposal's amount, it is
 * `refunded_elsewhere` and never sent — so the total refunded never exceeds the capture. A provider that does not
 * answer throws: nothing is committed and the job runs again later (no execution row, no key yet).
 */
async function providerMismatch(
  tx: Tx,
  p: {
    id: string;
    tenantId: string;
    orderId: string;
    recipientRef: string;
    amountMinor: number;
    order: { capturedMinor: number };
    payment: { provider: string; currency: string; amountMinor: number };
  },
  now: Date,
): Promise<string | null> {
  const live = await refundableLeftLive(
    sqlOf(tx),
    {
      tenantId: p.tenantId,
      orderId: p.orderId,
      provider: p.payment.provider,
      paymentRef: p.recipientRef,
      ledgerCapturedMinor: p.order.capturedMinor,
      payment: { currency: p.payment.currency, capturedMinor: p.payment.amountMinor },
    },
    { now, excludeProposalId: p.id },
  );
  if (!live.ok) {
    if (live.reason === "payment_not_at_provider") return "payment_not_at_provider";
    // Another currency or capture at the provider than the approved order's payment: never pay it.
    if (live.reason === "payment_mismatch") return "payment_mismatch";
    throw new Error(`payment provider unavailable before execution: ${live.message}`);
  }
  return live.live && live.leftMinor < p.amountMinor ? "refunded_elsewhere" : null;
}
