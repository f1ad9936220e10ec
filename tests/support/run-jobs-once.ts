// Run every due job once (graphile-worker's runOnce) and wait until the outcome of each is recorded.
// graphile-worker 0.18 may write a job's completion or failure (delete / unlock, attempts, next run_at) a
// moment after runOnce has resolved; tests that look at the job table or make a job due again must not
// race that write (it would undo their change, or show a job that is about to disappear). Bounded: 15 s.
import { runOnce } from "graphile-worker";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { tasks } from "@/lib/server/jobs/tasks";

export async function runJobsOnce(): Promise<void> {
  await runOnce({ connectionString: process.env.DATABASE_URL, taskList: tasks, noHandleSignals: true });
  const end = Date.now() + 15_000;
  while (Date.now() < end) {
    const {
      rows: [row],
    } = await sql<{
      n: bigint;
    }>`SELECT count(*) AS n FROM graphile_worker._private_jobs WHERE locked_at IS NOT NULL`.execute(sqlPool());
    if (Number(row?.n ?? 0) === 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}
