import "server-only";
import { ROOT_CONTEXT, SpanKind } from "@opentelemetry/api";
import { contextFrom, withSpan } from "./tracing";

/** Payload fields that are ids of the job's subject (job-types.ts): span attributes; nothing else is read. */
const SUBJECT_IDS = { proposalId: "approvalgw.proposal.id", executionId: "approvalgw.execution.id" } as const;

/**
 * The span of one background job run, named after its task (`execute_refund`, `reconcile_execution`, …), child
 * of the trace context stored with the job when it was enqueued (enqueue.ts), or a new trace (cron ticks,
 * jobs enqueued from SQL by the sweeper).
 */
export function traceJob<T>(
  task: string,
  raw: unknown,
  job: { id: string; attempt: number },
  run: () => Promise<T>,
): Promise<T> {
  const payload = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  const attributes: Record<string, string | number> = {
    "approvalgw.job.task": task,
    "approvalgw.job.id": job.id,
    "approvalgw.job.attempt": job.attempt,
  };
  for (const [field, attribute] of Object.entries(SUBJECT_IDS))
    if (typeof payload[field] === "string") attributes[attribute] = payload[field];
  const tp = typeof payload.traceparent === "string" ? payload.traceparent : null;
  return withSpan(task, attributes, () => run(), { parent: contextFrom(tp, ROOT_CONTEXT), kind: SpanKind.CONSUMER });
}
