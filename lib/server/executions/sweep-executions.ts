import "server-only";
import { sql } from "@/lib/server/db/sql";
import { executionStatus as E } from "@/lib/domain/execution-state";
import { proposalStatus as P } from "@/lib/domain/proposal-state";
import { statusLit } from "@/lib/server/db/status-sql";
import { jobKeyPrefix, jobTable, type KeyedJobName } from "@/lib/server/jobs/job-types";
import { executionTimings } from "@/lib/server/env";
import { sqlPool } from "@/lib/server/db/pg";

const BATCH = 200;

export type SweepResult = { executions: number; reconciliations: number };

/**
 * The safety net behind the per-execution jobs (the `sweep_executions` cron, every minute). A worker
 * killed with SIGKILL leaves the job it was running locked — graphile-worker only frees such jobs after
 * 4 hours — so an approved proposal whose execute job died before committing its execution, or an
 * in-doubt execution whose reconcile job died, would sit for hours. This re-enqueues them under their
 * usual job keys with `preserve_run_at`: a waiting job keeps its schedule, a locked (or permanently
 * failed) one gets a fresh job beside it. Both handlers are idempotent and serialize on the proposal /
 * the guarded execution update, so an extra job can never make a second provider effect.
 */
export async function sweepExecutions(): Promise<SweepResult> {
  const staleSeconds = executionTimings().staleSendingMs / 1000;
  const execute = "execute_refund" satisfies KeyedJobName;
  const reconcile = "reconcile_execution" satisfies KeyedJobName;
  const executions = (
    await sql<{ n: bigint }>`
    WITH due AS (
      SELECT p.id FROM "Proposal" p
       WHERE p.status = ${statusLit(P.approved)} AND COALESCE(p."decidedAt", p."updatedAt") < now() - interval '1 minute'
         AND NOT EXISTS (SELECT 1 FROM "Execution" e WHERE e."proposalId" = p.id)
       LIMIT ${BATCH})
    SELECT count(graphile_worker.add_job(${execute}::text, json_build_object(${jobTable.execute_refund.keyField}::text, due.id),
             job_key => ${jobKeyPrefix(execute)}::text || due.id, job_key_mode => 'preserve_run_at')) AS n
      FROM due`.execute(sqlPool())
  ).rows;
  const reconciliations = (
    await sql<{ n: bigint }>`
    WITH due AS (
      SELECT e.id FROM "Execution" e
       WHERE (e.status = ${statusLit(E.unknown)} AND e."updatedAt" < now() - interval '1 minute')
          OR (e.status = ${statusLit(E.sending)} AND COALESCE(e."lastAttemptAt", e."createdAt") < now() - make_interval(secs => ${staleSeconds}::float8) - interval '1 minute')
          OR (e.status = ${statusLit(E.pending)} AND e."updatedAt" < now() - interval '5 minutes')
       LIMIT ${BATCH})
    SELECT count(graphile_worker.add_job(${reconcile}::text, json_build_object(${jobTable.reconcile_execution.keyField}::text, due.id),
             job_key => ${jobKeyPrefix(reconcile)}::text || due.id, job_key_mode => 'preserve_run_at')) AS n
      FROM due`.execute(sqlPool())
  ).rows;
  return { executions: Number(executions[0]?.n ?? 0), reconciliations: Number(reconciliations[0]?.n ?? 0) };
}
