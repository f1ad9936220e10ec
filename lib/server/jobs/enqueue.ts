import "server-only";
import { sql, type Sql } from "@/lib/server/db/sql";
import { currentTraceparent } from "@/lib/server/telemetry/tracing";
import { jobKeyFor, jobTable, type JobName, type JobPayload } from "./job-types";

export type EnqueueOptions = {
  /** Not before this instant (default: now). */
  runAt?: Date;
  /** Attempts before the job is given up (graphile-worker's default is 25). */
  maxAttempts?: number;
};

/**
 * Enqueues a background job *inside the caller's transaction*: the job exists if and only if the
 * state change that asked for it commits (a rolled-back transaction enqueues nothing). graphile-worker
 * wakes idle workers with LISTEN/NOTIFY, which PostgreSQL only delivers on commit.
 *
 * `task` and the payload's type come from the job table (lib/server/jobs/job-types.ts); the payload is
 * checked against its schema here, and the job key comes from the table too: enqueueing a keyed job again
 * replaces the waiting one's payload and run time (graphile-worker `job_key_mode = 'replace'`) instead of
 * adding a second. Returns the job id.
 */
export async function enqueueJob<N extends JobName>(
  tx: Sql,
  task: N,
  payload: JobPayload<N>,
  opts: EnqueueOptions = {},
): Promise<string> {
  if (opts.maxAttempts !== undefined && (!Number.isInteger(opts.maxAttempts) || opts.maxAttempts < 1)) {
    throw new Error("maxAttempts must be a positive integer");
  }
  const checked = jobTable[task].payload.safeParse(payload);
  if (!checked.success)
    throw new Error(
      `invalid payload for job ${task}: ${checked.error.issues.map((i) => `${i.path.join(".") || "(root)"} ${i.message}`).join("; ")}`,
    );
  const jobKey = jobKeyFor(task, payload);
  const { rows } = await sql<{ id: bigint | string }>`
    SELECT (graphile_worker.add_job(
      identifier   => ${task}::text,
      payload      => ${JSON.stringify(withTraceContext(checked.data))}::json,
      run_at       => ${opts.runAt ?? null}::timestamptz,
      max_attempts => ${opts.maxAttempts ?? null}::int,
      job_key      => ${jobKey}::text
    )).id AS id`.execute(tx);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error(`add_job returned no job for task ${task}`);
  return String(id);
}

/**
 * The enqueuing span's trace context travels with the job (`traceparent`, beside the schema's fields, which
 * parse it away): the job's span continues that trace (define-task.ts), so an approval's execution, its
 * provider call and its reconciliation join the trace that prepared and approved the proposal.
 */
function withTraceContext(payload: object): object {
  const traceparent = currentTraceparent();
  return traceparent ? { ...payload, traceparent } : payload;
}
