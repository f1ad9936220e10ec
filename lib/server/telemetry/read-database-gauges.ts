import "server-only";
import { executionTimings } from "@/lib/server/env";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { jobNames } from "@/lib/server/jobs/job-types";
import { metrics } from "./metrics";

type Row = {
  inDoubt: number;
  inDoubtOldest: number;
  lag: number;
  checkpointAge: number;
  jobs: { task: string; n: number }[] | null;
};

/**
 * The gauges every instance must agree on, read from the database at scrape time in ONE statement of index
 * probes: executions in doubt (status unknown, or a send older than the stale threshold — what the reconciler
 * takes up) and the oldest one's age (Execution_status_lastAttemptAt index); per audit log with events waiting,
 * its oldest waiting event and its newest checkpoint (a loose index scan over AuditPending, one probe per log,
 * as the sequencer does); jobs due and not running per task of the job table (graphile-worker's schema
 * `graphile_worker`, lib/server/jobs/schema.ts; its partial index on available jobs).
 */
export async function readDatabaseGauges(): Promise<void> {
  const staleBefore = new Date(Date.now() - executionTimings().staleSendingMs).toISOString();
  const [row] = (
    await sql<Row>`
    WITH doubt AS (
      SELECT COALESCE(e."lastAttemptAt", e."createdAt") AS since FROM "Execution" e WHERE e."status" = 'unknown'
      UNION ALL
      SELECT e."lastAttemptAt" FROM "Execution" e
       WHERE e."status" = 'sending' AND e."lastAttemptAt" < (${staleBefore}::timestamptz AT TIME ZONE 'UTC')
    ), logs AS (
      WITH RECURSIVE l AS (
        (SELECT "logId" FROM "AuditPending" ORDER BY "logId" LIMIT 1)
        UNION ALL
        SELECT (SELECT "logId" FROM "AuditPending" WHERE "logId" > l."logId" ORDER BY "logId" LIMIT 1) FROM l WHERE l."logId" IS NOT NULL
      ) SELECT "logId" FROM l WHERE "logId" IS NOT NULL
    ), waiting AS (
      SELECT (SELECT p."occurredAt" FROM "AuditPending" p WHERE p."logId" = logs."logId" ORDER BY p."pos" LIMIT 1) AS oldest,
             (SELECT c."issuedAt" FROM "AuditSignedCheckpoint" c WHERE c."logId" = logs."logId" ORDER BY c."treeSize" DESC LIMIT 1) AS checkpoint
        FROM logs
    ), now_utc AS (SELECT now() AT TIME ZONE 'UTC' AS t)
    SELECT
      (SELECT count(*)::int FROM doubt) AS "inDoubt",
      (SELECT COALESCE(extract(epoch FROM now_utc.t - min(since)), 0)::float8 FROM doubt) AS "inDoubtOldest",
      (SELECT COALESCE(extract(epoch FROM now_utc.t - min(oldest)), 0)::float8 FROM waiting) AS "lag",
      (SELECT COALESCE(extract(epoch FROM now_utc.t - min(COALESCE(checkpoint, oldest))), 0)::float8 FROM waiting) AS "checkpointAge",
      (SELECT json_agg(json_build_object('task', t.identifier, 'n', j.n))
         FROM (SELECT task_id, count(*)::int AS n FROM graphile_worker._private_jobs
                WHERE is_available AND run_at <= now() GROUP BY task_id) j
         JOIN graphile_worker._private_tasks t ON t.id = j.task_id) AS "jobs"
    FROM now_utc`.execute(sqlPool())
  ).rows;
  const m = metrics();
  m.inDoubt.set(row?.inDoubt ?? 0);
  m.inDoubtOldest.set(Math.max(0, row?.inDoubtOldest ?? 0));
  m.sequencerLag.set(Math.max(0, row?.lag ?? 0));
  m.checkpointAge.set(Math.max(0, row?.checkpointAge ?? 0));
  // Every task shows (0 when none waits), so a series does not vanish between scrapes.
  const pending = new Map((row?.jobs ?? []).map((j) => [j.task, j.n]));
  for (const task of jobNames) m.jobsPending.set({ task }, pending.get(task) ?? 0);
}
