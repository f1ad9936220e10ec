import "server-only";
import { sql } from "@/lib/server/db/sql";
import { assertCan } from "@/lib/domain/permissions";
import {
  executionStates,
  executionStatus as E,
  settledExecutionStatuses,
  type ExecutionState,
} from "@/lib/domain/execution-state";
import { statusLit } from "@/lib/server/db/status-sql";
import { executionTimings } from "@/lib/server/env";
import type { Actor } from "@/lib/server/auth/actor";
import type { ChartPoint, ExecutionOverview, InDoubtRow } from "@/lib/schemas/execution-dto";
import { executionColumns, toExecutionRow } from "./list-executions";
import { sqlPool } from "@/lib/server/db/pg";

/** A refund the provider accepted but has not settled for this long is worth a look by ops. */
export const LONG_PENDING_MS = 15 * 60_000;
const IN_DOUBT_LIMIT = 50;

export type { ChartPoint, ExecutionOverview, InDoubtRow } from "@/lib/schemas/execution-dto";

type PayoutJson = {
  id: string;
  orderNumber: string;
  amountMinor: number;
  currency: string;
  recipientDisplay: string;
  recipientHolder: string;
  createdAt: string;
  payoutRecordedAt: string | null;
};
type Row = Partial<Parameters<typeof toExecutionRow>[0]> & {
  why: InDoubtRow["why"] | null;
  chart: { at: string; inDoubt: number; oldest: number | null }[];
  counts: Record<string, number> | null;
  payouts: PayoutJson[] | null;
};

/**
 * What ops watch, from ONE SQL statement (one snapshot, one `now()`), so the counters, the chart and the
 * in-doubt queue cannot disagree. One definition of "in doubt" serves all three: an execution is in doubt
 * from `inDoubtFrom` (unknown: at once; sending: once stale, i.e. a worker that probably died after calling
 * the provider; pending: after LONG_PENDING_MS; a settled one: if it stayed unsettled past the stale
 * threshold) until it settles. A manual payout (`awaiting_payout`) is never in doubt: it waits for ops, listed in
 * `toPayOut` (oldest first) with whether it awaits a second person's confirmation. The chart counts, per hour of the last 24 h, every execution in doubt at any
 * moment of that hour, and the count at this instant; the counters are the chart's "now" point; the queue lists the executions in doubt now, oldest first. Counts per state
 * are all-time. Tenant in every `where`.
 */
export async function getExecutionOverview(actor: Actor): Promise<ExecutionOverview> {
  assertCan(actor.roles, "executions:read");
  const { staleSendingMs } = executionTimings();
  const tenantId = actor.tenantId;
  const stale = staleSendingMs / 1000;
  const longPending = LONG_PENDING_MS / 1000;

  const rows = (
    await sql<Row>`
    WITH tracked AS (
      SELECT e.id, e."createdAt",
             CASE e.status
               WHEN ${statusLit(E.unknown)} THEN e."createdAt"
               WHEN ${statusLit(E.sending)} THEN COALESCE(e."lastAttemptAt", e."createdAt") + make_interval(secs => ${stale}::float8)
               WHEN ${statusLit(E.pending)} THEN e."createdAt" + make_interval(secs => ${longPending}::float8)
               ELSE e."createdAt" + make_interval(secs => ${stale}::float8)
             END AS "inDoubtFrom",
             CASE WHEN e.status IN (${statusLit(...settledExecutionStatuses)}) THEN COALESCE(e."settledAt", e."updatedAt") END AS "inDoubtUntil"
        FROM "Execution" e
       WHERE e."tenantId" = ${tenantId}::uuid
         -- A manual payout waits for ops by design (the "To pay out" list), it is not in doubt.
         AND e.status <> ${statusLit(E.awaitingPayout)}
         -- Settled before the window: never in doubt inside it.
         AND (e.status NOT IN (${statusLit(...settledExecutionStatuses)}) OR COALESCE(e."settledAt", e."updatedAt") > now() - interval '25 hours')
    ),
    -- Each hour is a bucket [lo, hi): an episode counts in every bucket it overlaps, however short (a sample
    -- at the hour would miss a 30-second one). The last point is the instant now() (hi one microsecond on).
    pts AS (SELECT t AS at, t AS lo, LEAST(t + interval '1 hour', now()) AS hi
              FROM generate_series(date_trunc('hour', now()) - interval '23 hours', date_trunc('hour', now()), interval '1 hour') AS t
            UNION ALL SELECT now(), now(), now() + interval '1 microsecond'),
    series AS (
      SELECT pts.at, count(x.id)::int AS "inDoubt",
             -- The oldest age reached inside the bucket: at its end, or when the episode settled.
             extract(epoch FROM max(LEAST(pts.hi, COALESCE(x."inDoubtUntil", pts.hi)) - x."createdAt"))::float8 AS oldest
        FROM pts
        LEFT JOIN tracked x ON x."inDoubtFrom" < pts.hi AND (x."inDoubtUntil" IS NULL OR x."inDoubtUntil" > pts.lo)
       GROUP BY pts.at),
    counts AS (SELECT status::text AS status, count(*)::int AS n FROM "Execution" WHERE "tenantId" = ${tenantId}::uuid GROUP BY status),
    doubt AS (
      SELECT ${executionColumns},
             CASE e.status WHEN ${statusLit(E.unknown)} THEN 'unknown' WHEN ${statusLit(E.sending)} THEN 'stale_sending' ELSE 'long_pending' END AS why
        FROM tracked x
        JOIN "Execution" e ON e.id = x.id
        JOIN "Proposal" p ON p.id = e."proposalId"
        -- Every kind: a proposal about no order is in doubt all the same (named by its subject).
        LEFT JOIN "Order" o ON o.id = p."orderId"
       WHERE x."inDoubtUntil" IS NULL AND x."inDoubtFrom" <= now()
       ORDER BY e."createdAt", e.id
       LIMIT ${IN_DOUBT_LIMIT}),
    payouts AS (
      SELECT e.id, o.number AS "orderNumber", p."amountMinor", p.currency, p."recipientDisplay", p."recipientHolder",
             e."createdAt", e."payoutRecordedAt"
        FROM "Execution" e
        JOIN "Proposal" p ON p.id = e."proposalId"
        JOIN "Order" o ON o.id = p."orderId"
       WHERE e."tenantId" = ${tenantId}::uuid AND e.status = ${statusLit(E.awaitingPayout)}
       ORDER BY e."createdAt", e.id
       LIMIT ${IN_DOUBT_LIMIT})
    SELECT d.*,
           (SELECT json_agg(json_build_object('at', s.at, 'inDoubt', s."inDoubt", 'oldest', s.oldest) ORDER BY s.at) FROM series s) AS chart,
           (SELECT json_object_agg(c.status, c.n) FROM counts c) AS counts,
           (SELECT json_agg(x ORDER BY x."createdAt", x.id) FROM payouts x) AS payouts
      FROM (SELECT 1) one
      LEFT JOIN doubt d ON true
     ORDER BY d."createdAt", d.id`.execute(sqlPool())
  ).rows;

  const first = rows[0];
  const counts = Object.fromEntries(executionStates.map((s) => [s, first?.counts?.[s] ?? 0])) as Record<
    ExecutionState,
    number
  >;
  const chart: ChartPoint[] = (first?.chart ?? []).map((c) => ({
    at: new Date(c.at).toISOString(),
    inDoubt: c.inDoubt,
    oldestAgeSeconds: Math.round(c.oldest ?? 0),
  }));
  const now = chart[chart.length - 1];
  const inDoubt = rows.filter(
    (r): r is Row & Parameters<typeof toExecutionRow>[0] & { why: InDoubtRow["why"] } => !!r.id && !!r.why,
  );
  return {
    counters: {
      inDoubt: now?.inDoubt ?? 0,
      oldestAgeSeconds: now?.oldestAgeSeconds ?? 0,
      total: Object.values(counts).reduce((a, b) => a + b, 0),
    },
    counts,
    inDoubt: inDoubt.map(({ chart: _chart, counts: _counts, payouts: _payouts, why, ...r }) => ({
      ...toExecutionRow(r),
      why,
    })),
    toPayOut: (first?.payouts ?? []).map((x) => ({
      id: x.id,
      orderNumber: x.orderNumber,
      amountMinor: x.amountMinor,
      currency: x.currency.trim(),
      recipientDisplay: x.recipientDisplay,
      recipientHolder: x.recipientHolder,
      createdAt: new Date(x.createdAt).toISOString(),
      awaitingConfirmation: x.payoutRecordedAt !== null,
    })),
    chart,
    staleSendingMs,
    longPendingMs: LONG_PENDING_MS,
  };
}
