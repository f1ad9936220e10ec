// npm run worker: a background job worker (lib/server/jobs, docs/jobs.md). `npm start` already runs
// one next to the app; start more with this script, against the same DATABASE_URL, for more throughput.
// Stops gracefully on SIGINT / SIGTERM (running jobs finish, waiting ones stay for other workers).
import nextEnv from "@next/env";
import { productionSecretProblems } from "../lib/config/demo-secrets";
import { jsonLog } from "./lib/json-log";

// Its own lines are JSON like the job runner's (docs/operations.md "Logs").
const log = jsonLog("worker");
nextEnv.loadEnvConfig(process.cwd(), false, {
  info: () => undefined,
  error: (...a: unknown[]) => log.error(a.map(String).join(" ")),
});

if (!process.env.DATABASE_URL) {
  log.error(
    "DATABASE_URL is not set. `npm start` runs a worker for its own database; for an extra worker, point DATABASE_URL at that database.",
  );
  process.exit(1);
}
if (process.env.APP_MODE !== "demo") {
  const problems = productionSecretProblems(process.env);
  if (problems.length) {
    log.error(`refusing to start in production mode: ${problems.join("; ")}.`);
    process.exit(1);
  }
}

// Imported after the checks: the data layer reads the environment when it loads.
// Traces first, so every job and provider call has a tracer (docs/observability.md).
const { startTelemetry } = await import("../lib/server/telemetry/setup");
startTelemetry("worker");
const { runWorker } = await import("../lib/server/jobs/run-worker");
const fail = (error: unknown) => {
  log.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
};
const runner = await runWorker({ handleSignals: true }).catch(fail);
// The audit sequencer (docs/audit.md): leads the audit logs no other worker leads, integrates new events
// into their Merkle trees and signs checkpoints. Its locks die with this process's connection (failover).
const { startSequencer } = await import("../lib/server/audit/sequencer");
startSequencer();
// WORKER_METRICS_PORT: this worker's own counters (executions, provider calls) at GET /metrics.
const { workerMetricsListen } = await import("../lib/server/env");
const listen = workerMetricsListen();
if (listen)
  await import("../lib/server/telemetry/worker-metrics").then((m) => m.startWorkerMetrics(listen)).catch(fail);
// Spawned by `npm start` (IPC channel): if that process goes away, even by kill -9, stop too.
if (process.send) process.on("disconnect", () => process.kill(process.pid, "SIGTERM"));
// The runner's promise rejects if the worker dies (e.g. the database went away): exit, let the supervisor restart.
runner?.promise.catch(fail);
