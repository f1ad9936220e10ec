import "server-only";
import { EventEmitter } from "node:events";
import { parseCrontab, run, type Runner, type WorkerEvents } from "graphile-worker";
import { db } from "@/lib/server/db/client";
import { databaseUrl, workerConcurrency } from "@/lib/server/env";
import { log } from "@/lib/server/log";
import { flushTelemetry } from "@/lib/server/telemetry/setup";
import { jobLogger } from "./logger";
import { JOB_SCHEMA } from "./schema";
import { crontab, tasks } from "./tasks";
import { expireProposals } from "@/lib/server/proposals/expire-proposals";
import { holdWorkerLiveness, unlockJobsOfDeadWorkers } from "./worker-liveness";

export type WorkerOptions = {
  databaseUrl?: string;
  /** Jobs run at once by this process (default WORKER_CONCURRENCY, else 4). */
  concurrency?: number;
  /** Stop gracefully on SIGINT/SIGTERM and exit (the worker script); tests leave it off. */
  handleSignals?: boolean;
  /** Without the crontab (tests that drive the sweep themselves). */
  noCron?: boolean;
  /** How often to look for jobs scheduled in the future (retries); new jobs arrive via LISTEN/NOTIFY. */
  pollIntervalMs?: number;
  /** How often this worker sweeps expired proposals and dead workers' jobs between the crontab's ticks (EXPIRY_SWEEP_MS). */
  expirySweepMs?: number;
};

const STOP_TIMEOUT_MS = 15_000;
/**
 * Between the crontab's minute ticks the worker sweeps expired proposals every few seconds, so the state the
 * agent, the queue and the page read turns `expired` within seconds of the expiry (the reads derive it from the
 * clock meanwhile). The sweep is one indexed, SKIP LOCKED update: any number of workers may run it at once.
 * On the same beat it frees the jobs of worker processes that died without stopping (worker-liveness.ts).
 */
export const EXPIRY_SWEEP_MS = 5_000;

/**
 * Runs the job worker until stopped: the task registry, the crontab, `concurrency` jobs at once.
 * graphile-worker migrates its schema first, hands each job to exactly one worker (row locks,
 * SKIP LOCKED), and on stop waits for running jobs before releasing the rest — so any number of
 * these processes can share one database.
 */
export async function runWorker(opts: WorkerOptions = {}): Promise<Runner> {
  const concurrency = opts.concurrency ?? workerConcurrency();
  const connectionString = opts.databaseUrl ?? databaseUrl();
  // This process's liveness lock, taken before any of its job slots exists (worker-liveness.ts): if it dies
  // without stopping, the other workers free the jobs it had locked within seconds, not graphile-worker's 4 hours.
  const events: WorkerEvents = new EventEmitter();
  let onLost!: (error: Error) => void;
  const livenessLost = new Promise<Error>((resolve) => (onLost = resolve));
  const liveness = await holdWorkerLiveness({ databaseUrl: connectionString, events, onLost });
  const started = run({
    connectionString,
    events,
    schema: JOB_SCHEMA,
    taskList: tasks,
    // Parsed here so an empty crontab means "no cron", not "read ./crontab".
    parsedCronItems: parseCrontab(opts.noCron ? "" : crontab),
    concurrency,
    // One connection per concurrent job plus LISTEN and housekeeping.
    maxPoolSize: concurrency + 2,
    pollInterval: opts.pollIntervalMs ?? 2_000,
    logger: jobLogger,
    // Signals are ours (below): graphile-worker's own handlers would re-raise them after stopping.
    noHandleSignals: true,
  });
  const runner = await started.catch(async (error: unknown) => {
    await liveness.stop();
    throw error;
  });
  // Without its lock, other workers may re-run this process's jobs: it stops, and the worker process exits (its
  // supervisor starts a new one, with a lock of its own).
  void livenessLost.then((error) => {
    log.error({ component: "jobs", err: error }, "worker liveness connection lost; stopping");
    return runner
      .stop()
      .catch(() => undefined)
      .finally(() => {
        if (opts.handleSignals) process.exit(1);
      });
  });
  void runner.promise.then(
    () => liveness.stop(),
    () => liveness.stop(),
  );
  log.info({ component: "jobs", concurrency, tasks: Object.keys(tasks) }, "worker started");
  if (!opts.noCron) {
    const sweep = setInterval(() => {
      expireProposals().catch((error: unknown) => log.warn({ component: "jobs", err: error }, "expiry sweep failed"));
      unlockJobsOfDeadWorkers().catch((error: unknown) =>
        log.warn({ component: "jobs", err: error }, "dead-worker sweep failed"),
      );
    }, opts.expirySweepMs ?? EXPIRY_SWEEP_MS);
    sweep.unref();
    void runner.promise.finally(() => clearInterval(sweep));
  }

  if (opts.handleSignals) {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      log.info({ component: "jobs", signal }, "worker stopping (waiting for running jobs)");
      const force = setTimeout(() => {
        log.error({ component: "jobs" }, "worker did not stop in time; exiting");
        process.exit(1);
      }, STOP_TIMEOUT_MS);
      force.unref();
      runner
        .stop()
        .then(() => db().$disconnect())
        // Spans still queued for the collector (bounded wait: the exporter's own timeout).
        .then(() => flushTelemetry().catch(() => undefined))
        .then(() => {
          log.info({ component: "jobs" }, "worker stopped");
          process.exit(0);
        })
        .catch((error: unknown) => {
          log.error({ component: "jobs", err: error }, "worker stop failed");
          process.exit(1);
        });
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  }
  return runner;
}
