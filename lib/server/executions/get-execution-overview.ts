import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import { executionStates, executionStatus as E, type ExecutionState } from "@/lib/domain/execution-state";
import { statusSql } from "@/lib/server/db/status-sql";
import { db } from "@/lib/server/db/client";
import { executionTimings } from "@/lib/server/env";
import type { Actor } from "@/lib/server/auth/actor";
import type { ExecutionOverview, InDoubtRow } from "@/lib/schemas/execution-dto";
import { executionColumns, toExecutionRow } from "./list-executions";

/** A refund the provider accepted but has not settled for this long is worth a look by ops. */
export const LONG_PENDING_MS = 15 * 60_000;
const IN_DOUBT_LIMIT = 50;

export type { ChartPoint, ExecutionOverview, InDoubtRow } from "@/lib/schemas/execution-dto";

/**
 * What ops watch: counts per state, the in-doubt queue (unknown; `sending` past the stale threshold, i.e.
 * a worker that probably died after calling the provider; `pending` for long) oldest first, and a 24 h
 * series computed from the executions' own timestamps: at each hour, how many executions had been
 * unsettled for longer than the stale threshold, and the age of the oldest. Tenant in every `where`.
 */
export async function getExecutionOverview(actor: Actor): Promise<ExecutionOverview> {
  assertCan(actor.roles, "executions:read");
  const { staleSendingMs } = executionTimings();
  const tenantId = actor.tenantId;

  const grouped = await db().execution.groupBy({ by: ["status"], where: { tenantId }, _count: { _all: true } });
  const counts = Object.fromEntries(executionStates.map((s) => [s, 0])) as Record<ExecutionState, number>;
  for (const g of grouped) counts[g.status] = g._count._all;

  const staleBefore = new Date(Date.now() - staleSendingMs);
  const pendingBefore = new Date(Date.now() - LONG_PENDING_MS);
  const inDoubt = await db().$queryRaw<(Parameters<typeof toExecutionRow>[0] & { why: InDoubtRow["why"] })[]>`
    SELECT ${executionColumns},
           CASE e.status WHEN ${statusSql(E.unknown)} THEN 'unknown' WHEN ${statusSql(E.sending)} THEN 'stale_sending' ELSE 'long_pending' END AS why
      FROM "Execution" e
      JOIN "Proposal" p ON p.id = e."proposalId"
      JOIN "Order" o ON o.id = p."orderId"
     WHERE e."tenantId" = ${tenantId}::uuid
       AND (e.status = ${statusSql(E.unknown)}
            OR (e.status = ${statusSql(E.sending)} AND COALESCE(e."lastAttemptAt", e."createdAt") < ${staleBefore})
            OR (e.status = ${statusSql(E.pending)} AND e."createdAt" < ${pendingBefore}))
     ORDER BY e."createdAt", e.id
     LIMIT ${IN_DOUBT_LIMIT}`;

  // Only executions unsettled at some point of the window can count: settled before it, they are out.
  const graceSeconds = staleSendingMs / 1000;
  const chart = await db().$queryRaw<{ at: Date; inDoubt: bigint; oldest: number | null }[]>`
    WITH pts AS (SELECT generate_series(date_trunc('hour', now()) - interval '23 hours', date_trunc('hour', now()), interval '1 hour') AS t
                 UNION ALL SELECT now())
    SELECT pts.t AS at, count(e.id) AS "inDoubt", extract(epoch FROM max(pts.t - e."createdAt"))::float8 AS oldest
      FROM pts
      LEFT JOIN "Execution" e
        ON e."tenantId" = ${tenantId}::uuid
       AND (e."settledAt" IS NULL OR e."settledAt" > now() - interval '25 hours')
       AND e."createdAt" <= pts.t - make_interval(secs => ${graceSeconds}::float8)
       AND (e."settledAt" IS NULL OR e."settledAt" > pts.t)
     GROUP BY pts.t
     ORDER BY pts.t`;

  return {
    counts,
    inDoubt: inDoubt.map((r) => ({ ...toExecutionRow(r), why: r.why })),
    chart: chart.map((c) => ({ at: c.at.toISOString(), inDoubt: Number(c.inDoubt), oldestAgeSeconds: Math.round(c.oldest ?? 0) })),
    staleSendingMs,
    longPendingMs: LONG_PENDING_MS,
  };
}
