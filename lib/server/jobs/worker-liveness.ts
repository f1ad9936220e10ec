import "server-only";
import { randomInt } from "node:crypto";
import type { WorkerEvents } from "graphile-worker";
import { sql } from "@/lib/server/db/sql";
import { connectDedicatedSql, pgPool, sqlOnConnection, type DedicatedSql } from "@/lib/server/db/pg";
import { log } from "@/lib/server/log";

/**
 * Which worker processes are alive, and freeing the jobs of those that are not.
 *
 * graphile-worker marks a running job `locked_by` the pool or job slot ("pool-…", "worker-…") that took it, and
 * frees the jobs of a holder whose process died without stopping (SIGKILL, a lost machine) only after 4 hours. Here each worker process
 * holds a session-level advisory lock for its whole life, on a connection of its own, and records its holders' ids
 * under that lock's key (`JobWorker`). The server drops the lock the moment the connection goes, so "the lock can be
 * taken" means "that process is gone": `unlockJobsOfDeadWorkers` then frees its jobs (graphile-worker's
 * `force_unlock_workers`) and another worker runs them again. Every handler is idempotent (tasks.ts), and the
 * execute and reconcile handlers serialize on the proposal and the guarded execution update, so a job run again
 * never makes a second effect. A slot not recorded yet, or a process whose lock is held, is left alone.
 */

/** First key of every worker process's liveness lock (the second is the process's own `instanceKey`). */
const LIVENESS_CLASS = "job-worker-liveness";

export type WorkerLiveness = {
  /** The second key of this process's lock. */
  instanceKey: number;
  /** Forgets this process's slots and drops its lock (a graceful stop: its jobs are already released). */
  stop: () => Promise<void>;
};

/**
 * Takes this process's liveness lock (a fresh random key, never one another live process holds) and records every
 * lock holder graphile-worker creates (its `pool:create` and `worker:create` events) under it. `onLost`: the lock's connection broke —
 * other workers may now free and re-run this process's jobs, so the caller should stop its runner.
 */
export async function holdWorkerLiveness(opts: {
  databaseUrl: string;
  events: WorkerEvents;
  onLost: (error: Error) => void;
}): Promise<WorkerLiveness> {
  let stopping = false;
  const session: DedicatedSql = await connectDedicatedSql({
    connectionString: opts.databaseUrl,
    applicationName: LIVENESS_CLASS,
    onError: (error) => {
      if (!stopping) opts.onLost(error);
    },
  });
  let instanceKey = 0;
  for (;;) {
    instanceKey = randomInt(-2_147_483_648, 2_147_483_647);
    const [row] = (
      await sql<{
        ok: boolean;
      }>`SELECT pg_try_advisory_lock(hashtext(${LIVENESS_CLASS}), ${instanceKey}::int4) AS ok`.execute(session.sql)
    ).rows;
    if (row?.ok) break;
  }
  // One statement at a time on the one connection (pg refuses overlapping queries on a client): chained.
  let recorded: Promise<unknown> = Promise.resolve();
  const record = (workerId: string) => {
    recorded = recorded.then(() =>
      sql`INSERT INTO "JobWorker" ("workerId", "instanceKey") VALUES (${workerId}, ${instanceKey}::int4)
          ON CONFLICT ("workerId") DO NOTHING`
        .execute(session.sql)
        .catch((error: unknown) =>
          log.warn({ component: "jobs", err: error, workerId }, "job lock holder not recorded for liveness"),
        ),
    );
  };
  // graphile-worker 0.18 locks the jobs it fetches in the pool's name ("pool-…"); a worker of its own ("worker-…")
  // locks in its own name. Both are recorded, so either kind of `locked_by` leads back to this process.
  opts.events.on("pool:create", ({ workerPool }) => record(workerPool.id));
  opts.events.on("worker:create", ({ worker }) => record(worker.workerId));
  return {
    instanceKey,
    stop: async () => {
      stopping = true;
      await recorded;
      await sql`DELETE FROM "JobWorker" WHERE "instanceKey" = ${instanceKey}::int4`
        .execute(session.sql)
        .catch(() => undefined);
      await session.end().catch(() => undefined);
    },
  };
}

export type DeadWorkerSweep = { processes: number; jobsFreed: number };

/**
 * Frees the jobs (and job queues) locked by the slots of every recorded process whose liveness lock can be taken,
 * i.e. whose process is gone, and forgets those slots. Any number of workers may run it at once: a process found
 * dead by one is skipped by the others while that one holds its key. Run by every worker every few seconds
 * (run-worker.ts, beside the expiry sweep).
 */
export async function unlockJobsOfDeadWorkers(): Promise<DeadWorkerSweep> {
  const client = await pgPool().connect();
  const session = sqlOnConnection(client);
  let processes = 0;
  let jobsFreed = 0;
  let broken: Error | undefined;
  try {
    const instances = (
      await sql<{ instanceKey: number; workerIds: string[] }>`
        SELECT "instanceKey", array_agg("workerId" ORDER BY "workerId") AS "workerIds" FROM "JobWorker" GROUP BY 1 ORDER BY 1`.execute(
        session,
      )
    ).rows;
    for (const { instanceKey, workerIds } of instances) {
      const [taken] = (
        await sql<{
          ok: boolean;
        }>`SELECT pg_try_advisory_lock(hashtext(${LIVENESS_CLASS}), ${instanceKey}::int4) AS ok`.execute(session)
      ).rows;
      if (!taken?.ok) continue;
      try {
        const [freed] = (
          await sql<{ n: number }>`
            SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE locked_by = ANY(${workerIds}::text[])`.execute(
            session,
          )
        ).rows;
        await sql`SELECT graphile_worker.force_unlock_workers(${workerIds}::text[])`.execute(session);
        await sql`DELETE FROM "JobWorker" WHERE "instanceKey" = ${instanceKey}::int4`.execute(session);
        processes += 1;
        jobsFreed += freed?.n ?? 0;
        if (freed?.n)
          log.warn(
            { component: "jobs", instanceKey, workerIds, jobs: freed.n },
            "freed the jobs of a worker process that died without stopping",
          );
      } finally {
        await sql`SELECT pg_advisory_unlock(hashtext(${LIVENESS_CLASS}), ${instanceKey}::int4)`.execute(session);
      }
    }
  } catch (error) {
    broken = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    // A connection that failed may still hold a key: destroyed, never handed back to the pool.
    client.release(broken);
  }
  return { processes, jobsFreed };
}
