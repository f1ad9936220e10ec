import "server-only";
import type { Tx } from "@/lib/server/db/client";

export type EnqueueOptions = {
  /**
   * At most one waiting job per key: enqueueing again with the same key replaces the waiting job's
   * payload and run time instead of adding a second one (graphile-worker `job_key_mode = 'replace'`).
   */
  jobKey?: string;
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
 * `task` is a name from lib/server/jobs/tasks.ts; `payload` must be JSON (ids, not secrets or personal
 * data: job payloads are stored in clear and outlive the request). Returns the job id.
 */
export async function enqueueJob(tx: Tx, task: string, payload: object, opts: EnqueueOptions = {}): Promise<string> {
  if (opts.maxAttempts !== undefined && (!Number.isInteger(opts.maxAttempts) || opts.maxAttempts < 1)) {
    throw new Error("maxAttempts must be a positive integer");
  }
  const rows = await tx.$queryRaw<{ id: bigint | string }[]>`
    SELECT (graphile_worker.add_job(
      identifier   => ${task}::text,
      payload      => ${JSON.stringify(payload)}::json,
      run_at       => ${opts.runAt ?? null}::timestamptz,
      max_attempts => ${opts.maxAttempts ?? null}::int,
      job_key      => ${opts.jobKey ?? null}::text
    )).id AS id`;
  const id = rows[0]?.id;
  if (id === undefined) throw new Error(`add_job returned no job for task ${task}`);
  return String(id);
}
