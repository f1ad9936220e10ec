import "server-only";
import { db } from "@/lib/server/db/client";
import { executionTimings } from "@/lib/server/env";

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
  const executions = await db().$queryRaw<{ n: bigint }[]>`
    WITH due AS (
      SELECT p.id FROM "Proposal" p
       WHERE p.status = 'approved' AND COALESCE(p."decidedAt", p."updatedAt") < now() - interval '1 minute'
         AND NOT EXISTS (SELECT 1 FROM "Execution" e WHERE e."proposalId" = p.id)
       LIMIT ${BATCH})
    SELECT count(graphile_worker.add_job('execute_refund', json_build_object('proposalId', due.id),
             job_key => 'execute:' || due.id, job_key_mode => 'preserve_run_at')) AS n
      FROM due`;
  const reconciliations = await db().$queryRaw<{ n: bigint }[]>`
    WITH due AS (
      SELECT e.id FROM "Execution" e
       WHERE (e.status = 'unknown' AND e."updatedAt" < now() - interval '1 minute')
          OR (e.status = 'sending' AND COALESCE(e."lastAttemptAt", e."createdAt") < now() - make_interval(secs => ${staleSeconds}::float8) - interval '1 minute')
          OR (e.status = 'pending' AND e."updatedAt" < now() - interval '5 minutes')
       LIMIT ${BATCH})
    SELECT count(graphile_worker.add_job('reconcile_execution', json_build_object('executionId', due.id),
             job_key => 'reconcile:' || due.id, job_key_mode => 'preserve_run_at')) AS n
      FROM due`;
  return { executions: Number(executions[0]?.n ?? 0), reconciliations: Number(reconciliations[0]?.n ?? 0) };
}
