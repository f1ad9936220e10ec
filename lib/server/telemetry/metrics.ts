import "server-only";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { isToolName } from "@/lib/schemas/tools";

// Prometheus metrics (docs/observability.md). Counters and histograms count what THIS process did (sum them
// over instances in PromQL); the gauges that must agree whichever instance is scraped (in doubt, jobs
// pending, sequencer lag, checkpoint age) are read from the database at scrape time (read-database-gauges.ts).
// Labels come from fixed lists only (tool names of the catalog, outcome codes, states): never ids or emails,
// and never caller text (an invented tool name is counted as "unknown").

type Metrics = {
  registry: Registry;
  toolCalls: Counter<"tool" | "code">;
  proposals: Counter<"kind" | "outcome">;
  approvalWait: Histogram;
  executions: Counter<"kind" | "result">;
  providerCalls: Counter<"operation" | "outcome">;
  providerWebhookEvents: Counter<"result">;
  transactionConflicts: Counter<"outcome">;
  inDoubt: Gauge;
  inDoubtOldest: Gauge;
  sequencerLag: Gauge;
  checkpointAge: Gauge;
  jobsPending: Gauge<"task">;
};

// One registry per process, whatever the number of bundles that load this module (Next.js route bundles).
const KEY = Symbol.for("approvalgw.metrics");

export function metrics(): Metrics {
  const g = globalThis as unknown as Record<symbol, Metrics | undefined>;
  return (g[KEY] ??= create());
}

function create(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    toolCalls: new Counter({
      name: "approvalgw_tool_calls_total",
      help: "Agent tool calls answered by this process, by tool (unknown for names not in the catalog) and outcome code.",
      labelNames: ["tool", "code"],
      registers,
    }),
    proposals: new Counter({
      name: "approvalgw_proposals_total",
      help: "Proposals by action kind and what happened to them in this process: prepared, approved, rejected.",
      labelNames: ["kind", "outcome"],
      registers,
    }),
    approvalWait: new Histogram({
      name: "approvalgw_approval_wait_seconds",
      help: "From a proposal's creation to a reviewer's decision (approve or reject) on it.",
      buckets: [5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200, 14400, 43200, 86400],
      registers,
    }),
    executions: new Counter({
      name: "approvalgw_executions_total",
      help: "Executions sent (first send and re-sends with the same key) by action kind and the answer of the system that acts (the payment provider, the shop's action endpoint): succeeded, pending, failed, unknown.",
      labelNames: ["kind", "result"],
      registers,
    }),
    providerCalls: new Counter({
      name: "approvalgw_provider_calls_total",
      help: "Payment provider calls by operation and outcome (unknown = no usable answer: timeout, 5xx, dropped connection).",
      labelNames: ["operation", "outcome"],
      registers,
    }),
    providerWebhookEvents: new Counter({
      name: "approvalgw_provider_webhook_events_total",
      help: "Provider webhook events about a payment that could not be placed: unplaced (no payment of the endpoint's account has the reference), ambiguous (more than one).",
      labelNames: ["result"],
      registers,
    }),
    transactionConflicts: new Counter({
      name: "approvalgw_transaction_conflicts_total",
      help: "Transactions PostgreSQL rolled back for a deadlock or a serialization failure, by what followed: replayed, gave_up (replays spent), outside_effect (not replayable).",
      labelNames: ["outcome"],
      registers,
    }),
    inDoubt: new Gauge({
      name: "approvalgw_executions_in_doubt",
      help: "Executions whose outcome is unknown (being reconciled), all instances.",
      registers,
    }),
    inDoubtOldest: new Gauge({
      name: "approvalgw_executions_in_doubt_oldest_seconds",
      help: "Age of the oldest execution in doubt, since its last send (0 when none).",
      registers,
    }),
    sequencerLag: new Gauge({
      name: "approvalgw_audit_sequencer_lag_seconds",
      help: "Age of the oldest audit event not yet integrated into its log's Merkle tree (0 when none waits).",
      registers,
    }),
    checkpointAge: new Gauge({
      name: "approvalgw_audit_checkpoint_age_seconds",
      help: "For logs with events waiting: seconds since the newest signed checkpoint of the log that has waited longest (0 when none waits).",
      registers,
    }),
    jobsPending: new Gauge({
      name: "approvalgw_jobs_pending",
      help: "Background jobs due now and not running, by task (all workers share the queue).",
      labelNames: ["task"],
      registers,
    }),
  };
}

/** The tool label: a catalog name, or "unknown" (the model's text never becomes a label). */
export const toolLabel = (name: string) => (isToolName(name) ? name : "unknown");
