// What the execution endpoints answer (DTOs), validated by the client fetcher (lib/queries/executions.ts).
import { z } from "zod";
import { executionStates } from "@/lib/domain/execution-state";

const iso = z.string();
export const executionStateSchema = z.enum(executionStates);

/**
 * One execution as the lists show it, for every action kind (docs/action-kinds.md). A refund has its amount and
 * currency and `summary` null; another kind has no amount (null) and a one-line `summary` from its review of the
 * proposal's hashed params. `providerRefundId` is the payment provider's reference (refunds), `actionReference` the
 * shop's (a kind carried out on the action endpoint).
 */
export const executionRowDto = z.object({
  id: z.string(),
  proposalId: z.string(),
  /** The proposal's kind: `refund`, `change_shipping_address`… (labels: messages `kinds.<kind>.title`). */
  kind: z.string(),
  /** The order's number; for a proposal about no order, its subject's reference. */
  orderNumber: z.string(),
  amountMinor: z.number().int().nullable(),
  currency: z.string().nullable(),
  /** The kind's one line from the hashed params; null for the refund (its amount speaks) or a kind unknown here. */
  summary: z.string().nullable(),
  status: executionStateSchema,
  attempts: z.number().int(),
  reconciliations: z.number().int(),
  providerRefundId: z.string().nullable(),
  actionReference: z.string().nullable(),
  idempotencyKey: z.string(),
  failureReason: z.string().nullable(),
  lastError: z.string().nullable(),
  createdAt: iso,
  lastAttemptAt: iso.nullable(),
  settledAt: iso.nullable(),
});
export type ExecutionRow = z.infer<typeof executionRowDto>;

export const executionsPageDto = z.object({ rows: z.array(executionRowDto), nextCursor: z.string().nullable() });
export type ExecutionsPage = z.infer<typeof executionsPageDto>;

export const inDoubtRowDto = executionRowDto.extend({ why: z.enum(["unknown", "stale_sending", "long_pending"]) });
export type InDoubtRow = z.infer<typeof inDoubtRowDto>;

export const chartPointDto = z.object({ at: iso, inDoubt: z.number().int(), oldestAgeSeconds: z.number() });
export type ChartPoint = z.infer<typeof chartPointDto>;

/**
 * The overview's counters, from the same statement (same snapshot, same `now()`) as the chart: `inDoubt` and
 * `oldestAgeSeconds` are the chart's last point ("now"), `total` is the sum of `counts`.
 */
export const overviewCountersDto = z.object({
  inDoubt: z.number().int(),
  oldestAgeSeconds: z.number(),
  total: z.number().int(),
});

/** A manual payout ops have to make (oldest first): what to pay to whom, and whether it awaits a second person. */
export const toPayOutRowDto = z.object({
  id: z.string(),
  orderNumber: z.string(),
  amountMinor: z.number().int(),
  currency: z.string(),
  recipientDisplay: z.string(),
  recipientHolder: z.string(),
  createdAt: iso,
  awaitingConfirmation: z.boolean(),
});
export type ToPayOutRow = z.infer<typeof toPayOutRowDto>;

export const executionOverviewDto = z.object({
  counters: overviewCountersDto,
  counts: z.record(executionStateSchema, z.number().int()),
  inDoubt: z.array(inDoubtRowDto),
  toPayOut: z.array(toPayOutRowDto),
  chart: z.array(chartPointDto),
  staleSendingMs: z.number(),
  longPendingMs: z.number(),
});
export type ExecutionOverview = z.infer<typeof executionOverviewDto>;

/** `reconciliations`: the execution's reconciliation count when the check was queued (the next finding is numbered after it). */
export const checkNowResultDto = z.object({
  executionId: z.string(),
  status: executionStateSchema,
  queued: z.boolean(),
  reconciliations: z.number().int(),
});
export type CheckNowResult = z.infer<typeof checkNowResultDto>;

/** Kinds of execution events on the detail page's timeline (from the execution's audit events). */
export const executionEventKinds = ["send", "answer", "resend", "reconcile", "check", "payout", "other"] as const;
export type ExecutionEventKind = (typeof executionEventKinds)[number];

export const executionEventDto = z.object({
  id: z.string(),
  at: iso,
  action: z.string(),
  kind: z.enum(executionEventKinds),
  outcome: z.string(),
  actorType: z.string(),
  /** A staff actor's name (same tenant), else null. */
  actorName: z.string().nullable(),
  /** Where a provider answer came from: send, reconcile, resend, webhook. */
  source: z.string().nullable(),
  /** A reconciliation's finding: settled, still_pending, resent, no_answer, in_flight. */
  finding: z.string().nullable(),
  /** The execution's state the event recorded (reconciliations, Check now). */
  status: executionStateSchema.nullable(),
  attempt: z.number().int().nullable(),
  reconciliation: z.number().int().nullable(),
  refundId: z.string().nullable(),
  /** Why it failed or had no answer (provider reason, error cause / code / HTTP status), as recorded. */
  detail: z.string().nullable(),
});
export type ExecutionEvent = z.infer<typeof executionEventDto>;

export const executionDetailDto = executionRowDto.extend({
  proposal: z.object({
    id: z.string(),
    status: z.string(),
    hash: z.string(),
    traceId: z.string(),
    /** A refund's; null for another kind. */
    amountMinor: z.number().int().nullable(),
    currency: z.string().nullable(),
    recipientDisplay: z.string().nullable(),
    recipientHolder: z.string().nullable(),
    recipientKind: z.string().nullable(),
    reason: z.string(),
    orderNumber: z.string(),
    /** The order's customer; null for a proposal about no order. */
    customerId: z.string().nullable(),
    customerName: z.string().nullable(),
    /**
     * Another kind's action as its review presents it from the hashed params: labelled fields (messages
     * `kinds.<kind>.fields.<key>`), before → after where something changes. Empty for a refund.
     */
    fields: z.array(
      z.object({
        key: z.string(),
        before: z.string().nullable(),
        after: z.string().nullable(),
        changed: z.boolean(),
        /** The field's own label per locale (an admin-declared action's); absent: messages name it. */
        label: z.object({ en: z.string(), es: z.string() }).optional(),
      }),
    ),
  }),
  /** Oldest first. */
  events: z.array(executionEventDto),
  /**
   * The steps of one action (docs/action-kinds.md, "Steps"): `partOf` — this execution is the second step (a
   * cancellation's refund) of the proposal named, with that proposal's execution; `followUp` — this execution's
   * proposal has a second step, with its status and execution once it has one. Null when there is none.
   */
  steps: z.object({
    partOf: z.object({ proposalId: z.string(), kind: z.string(), executionId: z.string().nullable() }).nullable(),
    followUp: z
      .object({ proposalId: z.string(), kind: z.string(), status: z.string(), executionId: z.string().nullable() })
      .nullable(),
  }),
  /**
   * A manual payout (a payment no provider holds): the transfer's reference once ops recorded it, who recorded and
   * confirmed it, and whether a second person must confirm (at or above four-eyes). Null for provider refunds.
   */
  payout: z
    .object({
      reference: z.string().nullable(),
      recordedByName: z.string().nullable(),
      recordedAt: z.string().nullable(),
      confirmedByName: z.string().nullable(),
      confirmedAt: z.string().nullable(),
      needsSecondPerson: z.boolean(),
      /** The viewer recorded it (so cannot confirm it). */
      recordedByViewer: z.boolean(),
    })
    .nullable(),
});
export type ExecutionDetail = z.infer<typeof executionDetailDto>;

export const payoutResultDto = z.object({
  executionId: z.string(),
  status: z.enum(["awaiting_confirmation", "succeeded"]),
  reference: z.string(),
});
