import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { parseInput } from "@/lib/domain/validation";
import { assertCan } from "@/lib/domain/permissions";
import {
  executionStatus as E,
  executionStates,
  payoutNeedsSecondPerson,
  type ExecutionState,
} from "@/lib/domain/execution-state";
import { getExecutionInput } from "@/lib/schemas/executions";
import type { ExecutionDetail, ExecutionEvent, ExecutionEventKind } from "@/lib/schemas/execution-dto";
import { db } from "@/lib/server/db/client";
import type { Actor } from "@/lib/server/auth/actor";
import { toExecutionRow } from "./list-executions";
import { asRefund } from "@/lib/domain/refund-row";
import { reviewOfKind } from "@/lib/server/proposals/kind-review";

export type { ExecutionDetail, ExecutionEvent } from "@/lib/schemas/execution-dto";

const EVENT_LIMIT = 500;

/** The reference of a proposal's subject (`{type, ref}`), naming a proposal about no order. */
const subjectRef = (subject: unknown): string =>
  subject && typeof subject === "object" && "ref" in subject && typeof subject.ref === "string" ? subject.ref : "—";

function kindOf(action: string): ExecutionEventKind {
  switch (action) {
    case "execution:send":
      return "send";
    case "execution:succeeded":
    case "execution:failed":
    case "execution:pending":
    case "execution:unknown":
      return "answer";
    case "execution:resend":
      return "resend";
    case "execution:reconcile":
    case "execution:duplicate_detected":
      return "reconcile";
    case "execution:check_now":
      return "check";
    case "execution:awaiting_payout":
    case "execution:payout_recorded":
    case "execution:payout_confirmed":
      return "payout";
    default:
      return "other";
  }
}

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const int = (v: unknown): number | null => (typeof v === "number" && Number.isInteger(v) ? v : null);
const state = (v: unknown): ExecutionState | null =>
  (executionStates as readonly unknown[]).includes(v) ? (v as ExecutionState) : null;

/** The recorded (redacted) details of one event, as the timeline shows them; anything else stays out. */
function detailOf(data: Record<string, unknown>): string | null {
  const parts = [
    str(data.reason),
    str(data.code),
    str(data.cause),
    int(data.statusCode)?.toString() ?? null,
    str(data.because),
  ].filter((x): x is string => !!x);
  return parts.length ? parts.join(" · ") : null;
}

/**
 * One execution of the caller's tenant, for the ops detail page: the execution, a summary of its proposal
 * (a refund's amount and recipient, or another kind's fields from its hashed params; order, customer, trace) and its
 * timeline — the execution's own audit events (send,
 * provider answers with their source, re-sends, reconciliations with their finding, "Check now"), oldest
 * first. An execution of another tenant, or none, is `not_found` (the tenant is in every `where`).
 */
export async function getExecutionDetail(actor: Actor, raw: unknown): Promise<ExecutionDetail> {
  assertCan(actor.roles, "executions:read");
  const { executionId } = parseInput(getExecutionInput, raw, "Not an execution id.");
  const tenantId = actor.tenantId;
  const ex = await db().execution.findFirst({
    where: { id: executionId, tenantId },
    include: {
      proposal: {
        select: {
          id: true,
          tenantId: true,
          kind: true,
          subject: true,
          params: true,
          status: true,
          hash: true,
          traceId: true,
          amountMinor: true,
          currency: true,
          recipientDisplay: true,
          recipientHolder: true,
          recipientKind: true,
          reason: true,
          requiredApprovals: true,
          order: { select: { number: true, customer: { select: { id: true, name: true } } } },
          tenant: { select: { dualApprovalThresholdMinor: true } },
          // The action's other step, if it has one (the follow-up's parent, or the parent's follow-up).
          parent: { select: { id: true, tenantId: true, kind: true, execution: { select: { id: true } } } },
          followUp: {
            select: { id: true, tenantId: true, kind: true, status: true, execution: { select: { id: true } } },
          },
        },
      },
    },
  });
  if (!ex || ex.proposal.tenantId !== tenantId) throw new AppError("not_found", "No such execution.");

  const rows = await db().auditEvent.findMany({
    where: { tenantId, proposalId: ex.proposalId, action: { startsWith: "execution:" } },
    orderBy: { pos: "asc" },
    take: EVENT_LIMIT,
    select: { id: true, occurredAt: true, action: true, outcome: true, actorType: true, actorId: true, data: true },
  });
  const payoutPeople = [ex.payoutRecordedById, ex.payoutConfirmedById].filter((x): x is string => !!x);
  const staffIds = [
    ...new Set([...rows.filter((r) => r.actorType === "staff" && r.actorId).map((r) => r.actorId!), ...payoutPeople]),
  ];
  const names = new Map(
    (staffIds.length
      ? await db().staffUser.findMany({ where: { tenantId, id: { in: staffIds } }, select: { id: true, name: true } })
      : []
    ).map((s) => [s.id, s.name]),
  );
  const events: ExecutionEvent[] = rows.map((r) => {
    const data = (r.data && typeof r.data === "object" && !Array.isArray(r.data) ? r.data : {}) as Record<
      string,
      unknown
    >;
    return {
      id: r.id,
      at: r.occurredAt.toISOString(),
      action: r.action,
      kind: kindOf(r.action),
      outcome: r.outcome,
      actorType: r.actorType,
      actorName: r.actorType === "staff" && r.actorId ? (names.get(r.actorId) ?? null) : null,
      source: str(data.source),
      finding: str(data.finding),
      status: state(data.status),
      attempt: int(data.attempt),
      reconciliation: int(data.reconciliation),
      refundId: str(data.refundId),
      detail: detailOf(data),
    };
  });

  // Every kind: a refund shows its amount and recipient (its own columns); another kind its review of the hashed
  // params (labelled fields, before → after), through the registry.
  const p = ex.proposal;
  const review = reviewOfKind(p.kind, p.params);
  const orderNumber = p.order?.number ?? subjectRef(p.subject);
  return {
    ...toExecutionRow({
      id: ex.id,
      proposalId: ex.proposalId,
      kind: p.kind,
      orderNumber,
      amountMinor: p.amountMinor,
      currency: p.currency,
      params: p.params,
      status: ex.status,
      attempts: ex.attempts,
      reconciliations: ex.reconciliations,
      providerRefundId: ex.providerRefundId,
      actionReference: ex.actionReference,
      idempotencyKey: ex.idempotencyKey,
      failureReason: ex.failureReason,
      lastError: ex.lastError,
      createdAt: ex.createdAt,
      lastAttemptAt: ex.lastAttemptAt,
      settledAt: ex.settledAt,
    }),
    proposal: {
      id: p.id,
      status: p.status,
      hash: p.hash,
      traceId: p.traceId,
      amountMinor: p.amountMinor,
      currency: p.currency?.trim() ?? null,
      recipientDisplay: p.recipientDisplay,
      recipientHolder: p.recipientHolder,
      recipientKind: p.recipientKind,
      reason: p.reason,
      orderNumber,
      customerId: p.order?.customer.id ?? null,
      customerName: p.order?.customer.name ?? null,
      fields: review?.fields ?? [],
    },
    events,
    steps: {
      // Both in the caller's tenant by construction (the follow-up is written from its parent); checked anyway.
      partOf:
        p.parent && p.parent.tenantId === tenantId
          ? { proposalId: p.parent.id, kind: p.parent.kind, executionId: p.parent.execution?.id ?? null }
          : null,
      followUp:
        p.followUp && p.followUp.tenantId === tenantId
          ? {
              proposalId: p.followUp.id,
              kind: p.followUp.kind,
              status: p.followUp.status,
              executionId: p.followUp.execution?.id ?? null,
            }
          : null,
    },
    payout:
      ex.status === E.awaitingPayout || ex.payoutRecordedById
        ? {
            reference: ex.payoutReference,
            recordedByName: ex.payoutRecordedById ? (names.get(ex.payoutRecordedById) ?? null) : null,
            recordedAt: ex.payoutRecordedAt?.toISOString() ?? null,
            confirmedByName: ex.payoutConfirmedById ? (names.get(ex.payoutConfirmedById) ?? null) : null,
            confirmedAt: ex.payoutConfirmedAt?.toISOString() ?? null,
            // A manual payout is a refund's (the provider's chain): the proposal has the refund's columns.
            needsSecondPerson: payoutNeedsSecondPerson(asRefund(p), p.tenant.dualApprovalThresholdMinor),
            recordedByViewer: ex.payoutRecordedById === actor.userId,
          }
        : null,
  };
}
