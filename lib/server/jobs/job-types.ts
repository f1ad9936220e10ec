import "server-only";
import { z } from "zod";

/**
 * A job keyed per subject: its payload is the subject's id (a UUID) under `keyField`, and its job key is
 * `keyPrefix` + that id — the field named once for both.
 */
function keyedBy<F extends string>(keyField: F, keyPrefix: string) {
  const shape = { [keyField]: z.uuid() } as { [K in F]: z.ZodUUID };
  return { payload: z.object(shape), keyPrefix, keyField };
}

/** A recurring job (crontab): no subject, so no key but its own name; its payload is whatever the cron sends. */
const recurring = (cron: string) => ({ payload: z.object({}).loose(), cron });

/**
 * The one table of background jobs: each task's name, its payload schema (zod; payloads are ids, never
 * secrets or personal data — they are stored in clear), and its job key. A job key keeps at most one
 * waiting job per subject (graphile-worker replaces the waiting job's payload and run time), so it must be
 * the same wherever the job is enqueued — from TypeScript (`enqueueJob`), from SQL (`jobKeySql`), and in
 * the crontab. `keyPrefix` + the payload's `keyField` is the key of a per-subject job; a recurring job's
 * key is its own name.
 */
export const jobTable = {
  /** Marks pending proposals past their expiry as `expired` (cron, every minute). */
  expire_proposals: recurring("* * * * *"),
  /** POSTs one signed reviewer notification; retried with backoff, `failed` after the last attempt. */
  deliver_review_webhook: keyedBy("deliveryId", "deliver_review_webhook:"),
  /**
   * POSTs one decision webhook (Standard Webhooks) to a channel; retried with backoff, `failed` after the last
   * attempt. Enqueued from SQL by the trigger of prisma/migrations/20261201103000_decision_webhooks, which
   * spells this key ("deliver_decision_webhook:" + deliveryId) and 8 attempts — keep the two in step.
   */
  deliver_decision_webhook: keyedBy("deliveryId", "deliver_decision_webhook:"),
  /** Sends one notification (e-mail or Slack message) of the outbox; retried with backoff, `failed` after the last attempt. */
  deliver_notification: keyedBy("notificationId", "notify:"),
  /** Creates the "about to expire" reminders of pending proposals, once per proposal and recipient (cron, every minute). */
  remind_expiring_proposals: recurring("* * * * *"),
  /** Alerts ops (once per execution and person) of executions stuck in `sending` past the stale threshold (cron, every minute). */
  alert_stale_executions: recurring("* * * * *"),
  /**
   * Executes an approved proposal once, whatever its kind (revalidate, commit the idempotency key, call the kind's
   * executor: the payment provider, the shop's action endpoint). The name is from when only refunds existed; kept,
   * since jobs of the previous release wait under it.
   */
  execute_refund: keyedBy("proposalId", "execute:"),
  /** Asks the executor (provider, action endpoint) about an execution whose outcome is unknown or pending; never a blind re-send. */
  reconcile_execution: keyedBy("executionId", "reconcile:"),
  /** Re-enqueues approved proposals and in-doubt executions whose job died with a killed worker (cron, every minute). */
  sweep_executions: recurring("* * * * *"),
  /** Walks every audit chain; a break writes an alert event and a stored check that /api/health reports (cron, hourly). */
  verify_audit_chain: recurring("17 * * * *"),
  /** Retention: purges events older than each tenant's retentionDays, leaving a checkpoint (cron, daily). */
  purge_audit_events: recurring("43 3 * * *"),
  /**
   * Deletes gateway bookkeeping past its use: agent budget counters (window counters after a day, trace
   * counters idle for a week), refused-key windows after a day, provider webhook event ids past the signature
   * tolerance, finished notifications after 30 days (cron, hourly).
   */
  purge_gateway_counters: recurring("29 * * * *"),
} as const satisfies Record<string, JobSpec>;

type JobSpec = { payload: z.ZodType; keyPrefix?: string; keyField?: string; cron?: string };

export type JobName = keyof typeof jobTable;
export type JobPayload<N extends JobName> = z.infer<(typeof jobTable)[N]["payload"]>;
/** The tasks whose jobs are keyed per subject (one waiting job per proposal, execution, delivery). */
export type KeyedJobName = { [N in JobName]: (typeof jobTable)[N] extends { keyPrefix: string } ? N : never }[JobName];

export const jobNames = Object.keys(jobTable) as JobName[];

/** The job key of one job, or null for jobs that are not keyed per subject. */
export function jobKeyFor<N extends JobName>(name: N, payload: JobPayload<N>): string | null {
  const spec: JobSpec = jobTable[name];
  if (!spec.keyPrefix || !spec.keyField) return null;
  const subject = (payload as Record<string, unknown>)[spec.keyField];
  if (typeof subject !== "string" || subject === "") throw new Error(`job ${name} needs ${spec.keyField} for its key`);
  return spec.keyPrefix + subject;
}

/** The key prefix of a keyed task, for SQL that builds the key as prefix || id (sweep-executions). */
export function jobKeyPrefix(name: KeyedJobName): string {
  return jobTable[name].keyPrefix;
}

/**
 * Recurring jobs (graphile-worker crontab syntax; UTC), from the table. With several workers each tick is
 * enqueued once (graphile-worker records it in its known_crontabs table). `max=1`: a failed run is not
 * retried, the next tick runs anyway; `jobKey`: at most one run waits while workers are down.
 */
export function crontabFromTable(): string {
  return jobNames
    .flatMap((name) => {
      const spec: JobSpec = jobTable[name];
      return spec.cron ? [`${spec.cron} ${name} ?max=1&jobKey=${name}`] : [];
    })
    .join("\n");
}
