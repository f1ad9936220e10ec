import "server-only";
// The bulk message's executor: keyed batches on the tenant's action endpoint (docs/action-kinds.md "The bulk
// message", docs/action-endpoint.md "Batches"), with the exactly-once discipline of the single-request executor
// (lib/server/executions/action-endpoint-executor.ts) applied to every batch.
//
// execute: under the proposal's lock — approvals still bound and fresh, the kind's revalidation — commit the
// execution (key `send_bulk_message-<proposal id>`) and its plan: the approved recipients still in the audience, cut
// into batches of BATCH_SIZE, each a BulkMessageBatch row `planned` with its key `<execution key>:batch:<i>`. Then,
// batch after batch: claim it (`sending`, a guarded update, committed BEFORE the POST), POST it, and record its answer
// (and its audit event) BEFORE the next batch is claimed. A batch answered `failed` ends the execution failed (later
// batches are never sent); `pending` or no trustworthy answer stops the run (executing / in doubt) for the reconciler.
//
// reconcile (the reconcile job, "Check now", or a worker that died mid-way): resume from the first batch not recorded
// as succeeded. A batch `sending` (its POST may have gone: the worker died between send and record) or `unknown` or
// `pending` is first looked up by its key (GET): the shop holds it → its answer is recorded; the shop answers 404 →
// re-sent with the same key (a guarded claim: one re-send); no answer → try later. A `planned` batch was never sent.
// So no batch is ever POSTed twice by us, and a key the shop already holds is never sent again.
//
// The send window (hashed in the params, ./send-window.ts) is enforced here: before any POST (a planned batch, or a
// re-send after the shop said it has none) the clock must be inside the window in its time zone. Outside it the run
// stops: the execution is `pending` (nothing at the shop is in doubt; ops are not alerted as for a stuck send), one
// `execution:waiting_for_window` event names the opening, and ONE reconcile_execution job is scheduled for that instant
// (keyed: it replaces the crash-resume job, and the sweeper preserves its run time) — no retry loop, no spinning.
// A batch that would start after the window closes thus waits for the next day's opening.
import { randomUUID } from "node:crypto";
import {
  actionIdempotencyKey,
  executionStatus as E,
  isExecutionSettled,
  unsettledExecutionStatuses,
} from "@/lib/domain/execution-state";
import { proposalStatus as P, statesLeadingTo } from "@/lib/domain/proposal-state";
import {
  lookupAction,
  sendAction,
  type LookupActionResult,
  type SendActionResult,
} from "@/lib/server/action-endpoint/client";
import { ActionEndpointUnavailable } from "@/lib/server/action-endpoint/stored-endpoint";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import { db, type Tx } from "@/lib/server/db/client";
import { sql, sqlOf } from "@/lib/server/db/sql";
import { transaction } from "@/lib/server/db/transaction";
import { executionTimings } from "@/lib/server/env";
import { RetryLater } from "@/lib/server/executions/reconcile-execution";
import { approvalProblem, endApprovedProposal } from "@/lib/server/executions/revalidate-approved";
import { enqueueJob } from "@/lib/server/jobs/enqueue";
import { notifyOpsOfInDoubt } from "@/lib/server/notifications/enqueue-notifications";
import { lockProposal } from "@/lib/server/proposals/proposal-guards";
import { metrics } from "@/lib/server/telemetry/metrics";
import type { KindExecutor } from "../kind.server";
import type { BulkMessageSource } from "./prepare";
import { currentRecipients, paramsOf, revalidate } from "./revalidate";
import { nextWindowOpening } from "./send-window";

/** Recipients per batch (one POST each). */
export const BATCH_SIZE = 100;

/** A batch's key: the execution's key, `:batch:` and its index from 0. */
export const batchKey = (executionKey: string, index: number) => `${executionKey}:batch:${index}`;

/** A batch's states (BulkMessageBatch_status_check). */
export const batchStatus = {
  planned: "planned",
  sending: "sending",
  succeeded: "succeeded",
  failed: "failed",
  pending: "pending",
  unknown: "unknown",
} as const;
const B = batchStatus;

const WORKER = { type: "system" as const, id: "worker", authMethod: "job" };
const RECONCILER = { type: "system" as const, id: "reconciler", authMethod: "job" };
const TX = { maxWait: 15_000, timeout: 15_000 };
/** The executor's audit data holds ids, keys, counts and the shop's references: no personal data (no contact). */
// (A batch's key is `idempotency` in the audit data: a field named …Key is dropped whole as a secret by the writer.)
const AUDIT_CLEAR = [
  "executionId",
  "opensAt",
  "window",
  "startHour",
  "endHour",
  "timeZone",
  "batch",
  "batches",
  "batchesSent",
  "idempotency",
  "reference",
  "recipients",
  "reason",
  "cause",
  "attempt",
  "because",
  "reconciliation",
  "finding",
  "status",
];

type Batch = {
  id: string;
  index: number;
  idempotencyKey: string;
  recipientIds: unknown;
  status: string;
  attempts: number;
  lastAttemptAt: Date | null;
};

type Mode = "send" | "reconcile";
/** Why a run stopped: every batch went, one failed, one is queued at the shop, one is in doubt, one may be in flight. */
type RunEnd = "done" | "failed" | "pending" | "in_doubt" | "in_flight" | "no_answer" | "settled_before" | "window";

/** The clock the send window is read with (tests pass their own; approvals' age is always checked on the real one). */
export type Clock = () => Date;
const systemClock: Clock = () => new Date();

/** The execute job for one approved bulk message (`clock`: when "now" is, for the window). */
export async function executeBulkMessage(proposalId: string, clock: Clock = systemClock): Promise<string> {
  const started = await transaction((tx) => begin(tx, proposalId), TX);
  if (typeof started === "string") return started;
  const end = await run(started.executionId, "send", clock);
  return end === "window" ? "waiting_for_window" : "sent";
}

/** The reconcile job (also what resumes an execution at its window's opening). */
export async function reconcileBulkMessage(executionId: string, clock: Clock = systemClock): Promise<string> {
  const ex = await db().execution.findUnique({ where: { id: executionId } });
  if (!ex || isExecutionSettled(ex.status)) return "already_settled";
  const { reconciliations: n } = await db().execution.update({
    where: { id: ex.id },
    data: { reconciliations: { increment: 1 } },
    select: { reconciliations: true },
  });
  const end = await run(executionId, "reconcile", clock);
  const finding = {
    done: "settled",
    failed: "settled",
    settled_before: "settled",
    pending: "still_pending",
    in_doubt: "resent",
    in_flight: "in_flight",
    no_answer: "no_answer",
    window: "waiting_for_window",
  }[end];
  await recordFinding(executionId, n, finding);
  if (end === "in_flight") throw new RetryLater("a batch may still be in flight");
  if (end === "no_answer") throw new RetryLater("the action endpoint did not answer");
  return finding;
}

export const bulkMessageExecutor: KindExecutor = {
  execute: (proposalId) => executeBulkMessage(proposalId),
  reconcile: (executionId) => reconcileBulkMessage(executionId),
};

async function begin(tx: Tx, proposalId: string): Promise<{ executionId: string } | string> {
  const [row] = (
    await sql<{ tenantId: string }>`SELECT "tenantId" FROM "Proposal" WHERE id = ${proposalId}::uuid`.execute(sqlOf(tx))
  ).rows;
  if (!row) return "not_approved";
  const p = await lockProposal(tx, row.tenantId, proposalId);
  if (!p) return "not_approved";
  if (await tx.execution.findUnique({ where: { proposalId }, select: { id: true } })) return "already_started";
  if (p.status !== P.approved) return "not_approved";
  const now = new Date();
  let problem = (await approvalProblem(tx, p, now)) ?? (await revalidate(tx, p));
  // The plan: the approved recipients still in the audience (never anyone the reviewers did not approve).
  const today = problem ? null : await currentRecipients(tx, p);
  const stillIn = today && "ids" in today ? new Set(today.ids) : new Set<string>();
  const approved = (p.source as BulkMessageSource).recipients ?? [];
  const recipients = approved.filter((id) => stillIn.has(id));
  if (!problem && recipients.length === 0) problem = "audience_changed";
  if (problem) {
    await endApprovedProposal(tx, p, problem, now);
    return "revalidation_failed";
  }
  const idempotencyKey = actionIdempotencyKey(p.kind, p.id);
  const execution = await tx.execution.create({
    data: {
      tenantId: p.tenantId,
      proposalId: p.id,
      idempotencyKey,
      status: E.sending,
      attempts: 1,
      lastAttemptAt: now,
    },
  });
  const batches = [];
  for (let i = 0; i * BATCH_SIZE < recipients.length; i++)
    batches.push({
      tenantId: p.tenantId,
      executionId: execution.id,
      index: i,
      idempotencyKey: batchKey(idempotencyKey, i),
      recipientIds: recipients.slice(i * BATCH_SIZE, (i + 1) * BATCH_SIZE),
    });
  await tx.bulkMessageBatch.createMany({ data: batches });
  const moved = await tx.proposal.updateMany({
    where: { id: p.id, status: P.approved },
    data: { status: P.executing },
  });
  if (moved.count !== 1) throw new Error("proposal changed state under its row lock");
  await recordAuditEvent(sqlOf(tx), {
    tenantId: p.tenantId,
    traceId: p.traceId,
    actor: WORKER,
    action: "execution:send",
    outcome: "result_pending",
    proposal: { id: p.id, hash: p.hash },
    data: {
      executionId: execution.id,
      idempotencyKey,
      attempt: 1,
      kind: p.kind,
      via: "action_endpoint",
      batches: batches.length,
      recipients: recipients.length,
      workerTrace: randomUUID().replace(/-/g, ""),
    },
    redaction: {
      clear: ["executionId", "idempotencyKey", "attempt", "kind", "via", "batches", "recipients", "workerTrace"],
    },
  });
  // If this worker dies mid-way, the reconciler resumes from the first batch not recorded as succeeded.
  await enqueueJob(
    sqlOf(tx),
    "reconcile_execution",
    { executionId: execution.id },
    { runAt: new Date(now.getTime() + executionTimings().staleSendingMs) },
  );
  return { executionId: execution.id };
}

/** Works through the batches in order until every one went, or one stops the run. */
async function run(executionId: string, mode: Mode, clock: Clock): Promise<RunEnd> {
  for (;;) {
    const ex = await db().execution.findUniqueOrThrow({ where: { id: executionId }, include: { proposal: true } });
    if (isExecutionSettled(ex.status)) return "settled_before";
    const batch = await db().bulkMessageBatch.findFirst({
      where: { executionId, status: { not: B.succeeded } },
      orderBy: { index: "asc" },
    });
    if (!batch) {
      await finish(executionId);
      return "done";
    }
    const request = {
      kind: ex.proposal.kind,
      proposal_id: ex.proposal.id,
      idempotency_key: batch.idempotencyKey,
      subject: { type: "segment", ref: paramsOf(ex.proposal).segment.slug },
      params: batchParams(ex.proposal, batch),
    };
    let answer: SendActionResult | LookupActionResult;
    if (batch.status === B.failed) return "failed";
    // A POST only inside the window (in its time zone); outside it, one job at the next opening resumes the run.
    const opening = () => nextWindowOpening(paramsOf(ex.proposal).window, clock());
    if (batch.status === B.planned) {
      const opens = opening();
      if (opens) return waitForWindow(executionId, batch, opens, mode);
      if (!(await claim(batch, [B.planned]))) continue; // another runner took it: look again
      answer = await send(ex.tenantId, request);
    } else {
      // sending, unknown or pending: its POST may have reached the shop. Never re-sent before the shop says it has none.
      if (
        batch.status === B.sending &&
        batch.lastAttemptAt &&
        Date.now() - batch.lastAttemptAt.getTime() < executionTimings().staleSendingMs
      )
        return "in_flight";
      const found = await lookup(ex.tenantId, batch.idempotencyKey);
      if (!("status" in found) && found.outcome !== "not_found") return "no_answer";
      if ("status" in found) answer = found;
      else {
        const opens = opening();
        if (opens) return waitForWindow(executionId, batch, opens, mode);
        if (!(await claim(batch, [B.sending, B.unknown]))) continue;
        await resendEvent(ex, batch);
        answer = await send(ex.tenantId, request);
      }
    }
    const end = await record(executionId, batch, answer, mode);
    if (end) return end;
  }
}

/**
 * Outside the send window: the execution waits (`pending`, no ops alert), the trace says until when, and one keyed
 * reconcile_execution job runs at the opening (replacing any waiting one: never a retry loop).
 */
async function waitForWindow(executionId: string, batch: Batch, opens: Date, mode: Mode): Promise<RunEnd> {
  await transaction(async (tx) => {
    const ex = await executionOf(tx, executionId);
    const moved = await tx.execution.updateMany({
      where: { id: executionId, status: { in: [...unsettledExecutionStatuses] } },
      data: { status: E.pending, lastError: null },
    });
    if (moved.count === 0) return;
    await auditOf(tx, ex, mode)("execution:waiting_for_window", "result_pending", {
      batch: batch.index,
      opensAt: opens.toISOString(),
      window: paramsOf(ex.proposal).window,
    });
    await enqueueJob(sqlOf(tx), "reconcile_execution", { executionId }, { runAt: opens });
  }, TX);
  return "window";
}

/** What the shop is sent for one batch: the recipients' ids (the shop resolves their contacts), never a contact. */
function batchParams(proposal: { params: unknown }, batch: Batch) {
  const params = paramsOf(proposal);
  return {
    batch: batch.index,
    recipients: batch.recipientIds as string[],
    channel: params.channel,
    text: params.text,
    window: params.window,
    segment: { slug: params.segment.slug, version: params.segment.version },
  };
}

/** Marks the batch `sending` (one more attempt) if it is still in one of `from`: the one runner that does may POST. */
async function claim(batch: Batch, from: string[]): Promise<boolean> {
  const moved = await db().bulkMessageBatch.updateMany({
    where: { id: batch.id, attempts: batch.attempts, status: { in: from } },
    data: { status: B.sending, attempts: { increment: 1 }, lastAttemptAt: new Date() },
  });
  return moved.count === 1;
}

async function send(tenantId: string, request: Parameters<typeof sendAction>[1]): Promise<SendActionResult> {
  let answer: SendActionResult;
  try {
    answer = await sendAction(tenantId, request);
  } catch (error) {
    if (!(error instanceof ActionEndpointUnavailable)) throw error;
    answer = { outcome: "unknown", why: error.message, cause: "connection", httpStatus: null };
  }
  metrics().executions.inc({
    kind: request.kind,
    result: "status" in answer ? answer.status : answer.outcome === "refused" ? "unknown" : answer.outcome,
  });
  return answer;
}

async function lookup(tenantId: string, key: string): Promise<LookupActionResult> {
  try {
    return await lookupAction(tenantId, key);
  } catch (error) {
    if (!(error instanceof ActionEndpointUnavailable)) throw error;
    return { outcome: "unknown", why: error.message, cause: "connection", httpStatus: null };
  }
}

type ExecutionWithProposal = Awaited<ReturnType<typeof executionOf>>;
const executionOf = (tx: Tx, id: string) =>
  tx.execution.findUniqueOrThrow({ where: { id }, include: { proposal: true } });

function auditOf(tx: Tx, ex: ExecutionWithProposal, mode: Mode) {
  return (action: string, outcome: string, data: Record<string, unknown>) =>
    recordAuditEvent(sqlOf(tx), {
      tenantId: ex.tenantId,
      traceId: ex.proposal.traceId,
      actor: mode === "send" ? WORKER : RECONCILER,
      action,
      outcome,
      proposal: { id: ex.proposal.id, hash: ex.proposal.hash },
      data: { executionId: ex.id, ...data },
      redaction: { clear: AUDIT_CLEAR },
    });
}

async function resendEvent(ex: { id: string }, batch: Batch): Promise<void> {
  await transaction(async (tx) => {
    const e = await executionOf(tx, ex.id);
    await auditOf(tx, e, "reconcile")("execution:resend", "result_pending", {
      batch: batch.index,
      idempotency: batch.idempotencyKey,
      attempt: batch.attempts + 1,
      because: "shop_has_no_action",
    });
  }, TX);
}

/**
 * Records one batch's answer, with its audit event, in one transaction — before the next batch is claimed. Null when
 * the run goes on to the next batch; otherwise why it stops.
 */
async function record(
  executionId: string,
  batch: Batch,
  answer: SendActionResult | LookupActionResult,
  mode: Mode,
): Promise<RunEnd | null> {
  return transaction(async (tx) => {
    const ex = await executionOf(tx, executionId);
    const audit = auditOf(tx, ex, mode);
    const open = { id: batch.id, status: { in: [B.sending, B.unknown, B.pending] } };
    const unsettled = { id: executionId, status: { in: [...unsettledExecutionStatuses] } };
    const at = new Date();
    if ("status" in answer && answer.status === "succeeded") {
      const moved = await tx.bulkMessageBatch.updateMany({
        where: open,
        data: { status: B.succeeded, reference: answer.reference, settledAt: at, lastError: null },
      });
      if (moved.count === 1)
        await audit("execution:batch_sent", "ok", {
          batch: batch.index,
          idempotency: batch.idempotencyKey,
          reference: answer.reference,
          recipients: (batch.recipientIds as string[]).length,
        });
      // Back from doubt (or a queued batch done): the execution is sending again until the last batch.
      await tx.execution.updateMany({ where: unsettled, data: { status: E.sending, lastError: null } });
      await tx.proposal.updateMany({
        where: { id: ex.proposalId, status: P.needsReconciliation },
        data: { status: P.executing },
      });
      return null;
    }
    if ("status" in answer && answer.status === "failed") {
      await tx.bulkMessageBatch.updateMany({
        where: open,
        data: { status: B.failed, reference: answer.reference, settledAt: at },
      });
      const reason = `batch ${batch.index} failed: ${answer.message ?? "failed at the shop"}`.slice(0, 500);
      const moved = await tx.execution.updateMany({
        where: unsettled,
        data: { status: E.failed, settledAt: at, failureReason: reason, actionReference: answer.reference },
      });
      if (moved.count === 0) return "failed";
      await tx.proposal.updateMany({
        where: { id: ex.proposalId, status: { in: statesLeadingTo(P.failed) } },
        data: { status: P.failed },
      });
      await audit("execution:failed", "ok", {
        batch: batch.index,
        idempotency: batch.idempotencyKey,
        reason: answer.message ?? null,
        batchesSent: await sentBatches(tx, executionId),
      });
      return "failed";
    }
    if ("status" in answer) {
      // pending: queued at the shop; looked up by its key later, never re-sent.
      await tx.bulkMessageBatch.updateMany({ where: open, data: { status: B.pending, reference: answer.reference } });
      const moved = await tx.execution.updateMany({ where: unsettled, data: { status: E.pending, lastError: null } });
      if (moved.count === 0) return "pending";
      await tx.proposal.updateMany({
        where: { id: ex.proposalId, status: { in: [P.executing, P.needsReconciliation] } },
        data: { status: P.executing },
      });
      await audit("execution:pending", "result_pending", {
        batch: batch.index,
        idempotency: batch.idempotencyKey,
        reference: answer.reference,
      });
      await enqueueJob(sqlOf(tx), "reconcile_execution", { executionId }, { runAt: new Date(Date.now() + 60_000) });
      return "pending";
    }
    // No answer we can trust (timeout, 5xx, a dropped connection, our request refused): in doubt until the GET says.
    const why =
      answer.outcome === "refused"
        ? `refused ${answer.httpStatus}: ${answer.why}`
        : answer.outcome === "unknown"
          ? `${answer.cause}: ${answer.why}`
          : "not found";
    await tx.bulkMessageBatch.updateMany({ where: open, data: { status: B.unknown, lastError: why.slice(0, 500) } });
    const moved = await tx.execution.updateMany({
      where: { id: executionId, status: { in: [E.sending, E.unknown, E.pending] } },
      data: { status: E.unknown, lastError: `batch ${batch.index}: ${why}`.slice(0, 500) },
    });
    if (moved.count === 0) return "in_doubt";
    await tx.proposal.updateMany({
      where: { id: ex.proposalId, status: P.executing },
      data: { status: P.needsReconciliation },
    });
    await audit("execution:batch_unknown", "result_pending", {
      batch: batch.index,
      idempotency: batch.idempotencyKey,
      cause: answer.outcome === "unknown" ? answer.cause : answer.outcome,
    });
    await enqueueJob(
      sqlOf(tx),
      "reconcile_execution",
      { executionId },
      { runAt: new Date(Date.now() + executionTimings().reconcileDelayMs) },
    );
    await notifyOpsOfInDoubt(tx, ex);
    return "in_doubt";
  }, TX);
}

/** The batches that went (key and the shop's reference), in order: what the evidence pack proves. */
async function sentBatches(tx: Tx, executionId: string) {
  const rows = await tx.bulkMessageBatch.findMany({
    where: { executionId, status: B.succeeded },
    orderBy: { index: "asc" },
    select: { index: true, idempotencyKey: true, reference: true, recipientIds: true },
  });
  return rows.map((r) => ({
    batch: r.index,
    idempotency: r.idempotencyKey,
    reference: r.reference,
    recipients: (r.recipientIds as string[]).length,
  }));
}

/** Every batch went: the execution and its proposal succeeded, with the list of batches in the trace. */
async function finish(executionId: string): Promise<void> {
  await transaction(async (tx) => {
    const ex = await executionOf(tx, executionId);
    const batches = await sentBatches(tx, executionId);
    const reference = batches.at(-1)?.reference ?? null;
    const moved = await tx.execution.updateMany({
      where: { id: executionId, status: { in: [...unsettledExecutionStatuses] } },
      data: { status: E.succeeded, actionReference: reference, settledAt: new Date(), lastError: null },
    });
    if (moved.count === 0) return;
    await tx.proposal.updateMany({
      where: { id: ex.proposalId, status: { in: statesLeadingTo(P.succeeded) } },
      data: { status: P.succeeded },
    });
    const audit = auditOf(tx, ex, "send");
    await audit("execution:succeeded", "ok", { reference });
    await audit("execution:batches_done", "ok", {
      batches,
      recipients: batches.reduce((n, b) => n + b.recipients, 0),
    });
  }, TX);
}

async function recordFinding(executionId: string, reconciliation: number, finding: string): Promise<void> {
  await transaction(async (tx) => {
    const ex = await executionOf(tx, executionId);
    await auditOf(tx, ex, "reconcile")("execution:reconcile", isExecutionSettled(ex.status) ? "ok" : "result_pending", {
      reconciliation,
      finding,
      status: ex.status,
    });
  }, TX);
}
