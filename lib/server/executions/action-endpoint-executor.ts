import "server-only";
import { randomUUID } from "node:crypto";
import {
  actionIdempotencyKey,
  executionStatus as E,
  isExecutionSettled,
  unsettledExecutionStatuses,
} from "@/lib/domain/execution-state";
import { proposalStatus as P, statesLeadingTo } from "@/lib/domain/proposal-state";
import type { ActionEndpointRequest } from "@/lib/schemas/action-endpoint";
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
import { enqueueJob } from "@/lib/server/jobs/enqueue";
import { metrics } from "@/lib/server/telemetry/metrics";
import { notifyOpsOfInDoubt } from "@/lib/server/notifications/enqueue-notifications";
import { lockOrderOfExecution } from "@/lib/server/proposals/locks";
import { lockProposal, type LockedProposal } from "@/lib/server/proposals/proposal-guards";
import { unlockedProposal, type OutsideProposal } from "@/lib/server/proposals/revalidation-outside";
import { approvalProblem, endApprovedProposal } from "./revalidate-approved";
import { RetryLater } from "./reconcile-execution";

// The executor of every kind the shop carries out (docs/action-endpoint.md; the design's "Executors"): the same
// exactly-once discipline as the refund's, on the tenant's action endpoint instead of the payment provider.
//
// execute: under the proposal's lock — approvals still bound and fresh, the kind's revalidation — commit the
// execution with its idempotency key (`<kind>-<proposal id>`, deterministic: no second key can exist), then POST.
// The answer is recorded in one guarded transaction: succeeded (and the kind settles its effect on our copy of the
// system of record in that transaction), failed, pending, or unknown (timeout, 5xx, a dropped connection, the shop
// refusing our request) → in doubt. reconcile: GET by the key first; the shop holds it → record its answer; the shop
// answers 404 → re-send with the *same* key; no answer → try later. Never a new key, never a blind re-send.
// Knows no kind: the kind says what to send and what its success changes here.

/** What a kind executed on the action endpoint declares. */
export type ActionEndpointSpec = {
  /** Re-derive under the proposal's lock (the kind's `revalidate`): a reason ends the proposal unsent. */
  revalidate(tx: Tx, proposal: LockedProposal, now: Date, outside?: unknown): Promise<string | null>;
  /** What revalidate needs from outside our database, fetched before the transaction (KindBehaviour's). */
  revalidateOutside?: (proposal: OutsideProposal) => Promise<unknown>;
  /** What the shop is sent of the approved proposal: the subject as the shop names it and the hashed params it needs. */
  request(proposal: ExecutedProposal): Pick<ActionEndpointRequest, "subject" | "params">;
  /** The shop did it: what changes in our copy of the system of record, in the transaction that records the success. */
  settle(tx: Tx, proposal: ExecutedProposal): Promise<void>;
};

/** The proposal as the executor hands it to the kind (the stored, hashed values). */
export type ExecutedProposal = {
  id: string;
  tenantId: string;
  kind: string;
  subject: unknown;
  params: unknown;
  orderId: string | null;
  hash: string;
  traceId: string;
  customerId: string | null;
  channelId: string | null;
  endUserId: string | null;
  requestedByAgentKeyId: string | null;
  requestedByStaffId: string | null;
  requiredApprovals: number;
};

export function actionEndpointExecutor(spec: ActionEndpointSpec) {
  return {
    execute: (proposalId: string) => executeOnEndpoint(proposalId, spec),
    reconcile: (executionId: string) => reconcileOnEndpoint(executionId, spec),
  };
}

const WORKER = { type: "system" as const, id: "worker", authMethod: "job" };
const RECONCILER = { type: "system" as const, id: "reconciler", authMethod: "job" };

type Started = { executionId: string; request: ActionEndpointRequest; tenantId: string };

async function executeOnEndpoint(proposalId: string, spec: ActionEndpointSpec): Promise<string> {
  const traceId = randomUUID().replace(/-/g, "");
  // The kind's look outside our database (a re-derive on the shop) before the transaction: nothing held meanwhile.
  const approved = spec.revalidateOutside ? await unlockedProposal(null, proposalId, [P.approved]) : null;
  const outside = approved ? await spec.revalidateOutside?.(approved) : undefined;
  const started = await transaction((tx) => begin(tx, proposalId, spec, traceId, outside), {
    maxWait: 15_000,
    timeout: 15_000,
  });
  if (typeof started === "string") return started;
  const answer = await send(started.tenantId, started.request);
  await applyAnswer(started.executionId, answer, "send", spec);
  return "sent";
}

async function begin(
  tx: Tx,
  proposalId: string,
  spec: ActionEndpointSpec,
  workerTrace: string,
  outside: unknown,
): Promise<Started | string> {
  const [row] = (
    await sql<{ tenantId: string }>`SELECT "tenantId" FROM "Proposal" WHERE id = ${proposalId}::uuid`.execute(sqlOf(tx))
  ).rows;
  if (!row) return "not_approved";
  const p = await lockProposal(tx, row.tenantId, proposalId);
  if (!p) return "not_approved";
  if (await tx.execution.findUnique({ where: { proposalId }, select: { id: true } })) return "already_started";
  if (p.status !== P.approved) return "not_approved";
  const now = new Date();
  const problem = (await approvalProblem(tx, p, now)) ?? (await spec.revalidate(tx, p, now, outside));
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
    data: { executionId: execution.id, idempotencyKey, attempt: 1, kind: p.kind, via: "action_endpoint", workerTrace },
    redaction: { clear: ["executionId", "idempotencyKey", "attempt", "kind", "via", "workerTrace"] },
  });
  // If this worker dies right after the POST, the reconciler picks the execution up.
  await enqueueJob(
    sqlOf(tx),
    "reconcile_execution",
    { executionId: execution.id },
    { runAt: new Date(now.getTime() + executionTimings().staleSendingMs) },
  );
  const { subject, params } = spec.request(p);
  return {
    executionId: execution.id,
    tenantId: p.tenantId,
    request: { kind: p.kind, proposal_id: p.id, idempotency_key: idempotencyKey, subject, params },
  };
}

/** POSTs the action; an endpoint that cannot be opened (removed, its secret unusable) is an unknown outcome too. */
async function send(tenantId: string, request: ActionEndpointRequest): Promise<SendActionResult> {
  const answer = await sendOnce(tenantId, request);
  // Counted like the payment provider's sends: by kind and what the shop answered (a refusal of our request is an
  // unknown outcome, reconciled like one).
  metrics().executions.inc({
    kind: request.kind,
    result: "status" in answer ? answer.status : answer.outcome === "refused" ? "unknown" : answer.outcome,
  });
  return answer;
}

async function sendOnce(tenantId: string, request: ActionEndpointRequest): Promise<SendActionResult> {
  try {
    return await sendAction(tenantId, request);
  } catch (error) {
    if (!(error instanceof ActionEndpointUnavailable)) throw error;
    return { outcome: "unknown", why: error.message, cause: "connection", httpStatus: null };
  }
}

type Source = "send" | "reconcile" | "resend";

/**
 * Records what the shop said about an execution, in one guarded transaction (the order first: the kind's settle may
 * write it). A settled execution never changes again: a late or repeated answer changes nothing.
 */
async function applyAnswer(
  executionId: string,
  answer: SendActionResult | LookupActionResult,
  source: Source,
  spec: ActionEndpointSpec,
): Promise<void> {
  await transaction(
    async (tx) => {
      await lockOrderOfExecution(sqlOf(tx), executionId);
      const ex = await tx.execution.findUniqueOrThrow({ where: { id: executionId }, include: { proposal: true } });
      const audit = (action: string, outcome: string, details: Record<string, unknown>) =>
        recordAuditEvent(sqlOf(tx), {
          tenantId: ex.tenantId,
          traceId: ex.proposal.traceId,
          actor: source === "send" ? WORKER : RECONCILER,
          action,
          outcome,
          proposal: { id: ex.proposal.id, hash: ex.proposal.hash },
          data: { executionId: ex.id, source, ...details },
          redaction: { clear: ["executionId", "source", "reference", "reason", "cause", "statusCode"] },
        });
      const unsettled = { id: executionId, status: { in: [...unsettledExecutionStatuses] } };
      if ("status" in answer && (answer.status === "succeeded" || answer.status === "failed")) {
        const status = answer.status === "succeeded" ? E.succeeded : E.failed;
        const moved = await tx.execution.updateMany({
          where: unsettled,
          data: {
            status,
            actionReference: answer.reference,
            settledAt: new Date(),
            ...(status === E.succeeded
              ? { lastError: null }
              : { failureReason: (answer.message ?? "failed at the shop").slice(0, 500) }),
          },
        });
        if (moved.count === 0) return;
        await tx.proposal.updateMany({
          where: { id: ex.proposalId, status: { in: statesLeadingTo(status) } },
          data: { status },
        });
        if (status === E.succeeded) await spec.settle(tx, ex.proposal);
        await audit(`execution:${status}`, "ok", {
          reference: answer.reference,
          ...(status === E.failed ? { reason: answer.message ?? null } : {}),
        });
      } else if ("status" in answer) {
        const moved = await tx.execution.updateMany({
          where: unsettled,
          data: { status: E.pending, actionReference: answer.reference, lastError: null },
        });
        if (moved.count === 0) return;
        await tx.proposal.updateMany({
          where: { id: ex.proposalId, status: { in: [P.executing, P.needsReconciliation] } },
          data: { status: P.executing },
        });
        await audit("execution:pending", "result_pending", { reference: answer.reference });
        await enqueueJob(sqlOf(tx), "reconcile_execution", { executionId }, { runAt: new Date(Date.now() + 60_000) });
      } else if (answer.outcome !== "not_found") {
        // unknown (timeout, 5xx, connection, malformed) or refused (our request: signature, body): nothing we can
        // trust was answered. In doubt until the GET says what the shop holds.
        const why =
          answer.outcome === "refused"
            ? `refused ${answer.httpStatus}: ${answer.why}`
            : `${answer.cause}: ${answer.why}`;
        const moved = await tx.execution.updateMany({
          where: { id: executionId, status: { in: [E.sending, E.unknown] } },
          data: { status: E.unknown, lastError: why.slice(0, 500) },
        });
        if (moved.count === 0) return;
        await tx.proposal.updateMany({
          where: { id: ex.proposalId, status: P.executing },
          data: { status: P.needsReconciliation },
        });
        await audit("execution:unknown", "result_pending", {
          cause: answer.outcome === "refused" ? "refused" : answer.cause,
          statusCode: answer.httpStatus,
        });
        await enqueueJob(
          sqlOf(tx),
          "reconcile_execution",
          { executionId },
          { runAt: new Date(Date.now() + executionTimings().reconcileDelayMs) },
        );
        // Ops hear of it (once per execution and person: the outbox's dedupe key), committed with the state.
        await notifyOpsOfInDoubt(tx, ex);
      }
    },
    { maxWait: 15_000, timeout: 15_000 },
  );
}

/** Records the reconciler's finding in the trace (the ops timeline; "Check now" waits for it). */
async function recordFinding(
  executionId: string,
  reconciliation: number,
  finding: "settled" | "still_pending" | "resent" | "no_answer" | "in_flight",
  cause?: string,
): Promise<void> {
  await transaction(async (tx) => {
    const ex = await tx.execution.findUniqueOrThrow({ where: { id: executionId }, include: { proposal: true } });
    await recordAuditEvent(sqlOf(tx), {
      tenantId: ex.tenantId,
      traceId: ex.proposal.traceId,
      actor: RECONCILER,
      action: "execution:reconcile",
      outcome: isExecutionSettled(ex.status) ? "ok" : "result_pending",
      proposal: { id: ex.proposal.id, hash: ex.proposal.hash },
      data: { executionId, reconciliation, finding, status: ex.status, ...(cause ? { cause } : {}) },
      redaction: { clear: ["executionId", "reconciliation", "finding", "status", "cause"] },
    });
  });
}

async function reconcileOnEndpoint(executionId: string, spec: ActionEndpointSpec): Promise<string> {
  const ex = await db().execution.findUnique({ where: { id: executionId }, include: { proposal: true } });
  if (!ex || isExecutionSettled(ex.status)) return "already_settled";
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
    await recordFinding(ex.id, n, "in_flight");
    throw new RetryLater("the send may still be in flight");
  }
  let found: LookupActionResult;
  try {
    found = await lookupAction(ex.tenantId, ex.idempotencyKey);
  } catch (error) {
    if (!(error instanceof ActionEndpointUnavailable)) throw error;
    found = { outcome: "unknown", why: error.message, cause: "connection", httpStatus: null };
  }
  if ("status" in found) {
    await applyAnswer(ex.id, found, "reconcile", spec);
    const finding = found.status === "pending" ? "still_pending" : "settled";
    await recordFinding(ex.id, n, finding);
    return finding;
  }
  if (found.outcome === "unknown" || found.outcome === "refused") {
    const cause = found.outcome === "refused" ? "refused" : found.cause;
    await recordFinding(ex.id, n, "no_answer", cause);
    throw new RetryLater(`the action endpoint did not answer: ${cause}`);
  }
  // The shop answered and never received it: re-send with the same key. The guarded update makes concurrent
  // reconcilers agree on one re-send (and the key would make a second one a replay at the shop).
  const claimed = await transaction(async (tx) => {
    const moved = await tx.execution.updateMany({
      where: { id: ex.id, attempts: ex.attempts, status: { in: [E.unknown, E.sending] } },
      data: { attempts: { increment: 1 }, status: E.sending, lastAttemptAt: new Date() },
    });
    if (moved.count !== 1) return false;
    await recordAuditEvent(sqlOf(tx), {
      tenantId: ex.tenantId,
      traceId: ex.proposal.traceId,
      actor: RECONCILER,
      action: "execution:resend",
      outcome: "result_pending",
      proposal: { id: ex.proposal.id, hash: ex.proposal.hash },
      data: {
        executionId: ex.id,
        idempotencyKey: ex.idempotencyKey,
        attempt: ex.attempts + 1,
        because: "shop_has_no_action",
      },
      redaction: { clear: ["executionId", "idempotencyKey", "attempt", "because"] },
    });
    return true;
  });
  if (!claimed) return "already_settled";
  const { subject, params } = spec.request(ex.proposal);
  const answer = await send(ex.tenantId, {
    kind: ex.proposal.kind,
    proposal_id: ex.proposal.id,
    idempotency_key: ex.idempotencyKey,
    subject,
    params,
  });
  await applyAnswer(ex.id, answer, "resend", spec);
  await recordFinding(ex.id, n, "resent");
  return "resent";
}
