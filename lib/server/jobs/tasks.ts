import "server-only";
import type { TaskList } from "graphile-worker";
import { z } from "zod";
import { defineTask } from "./define-task";
import { expireProposals } from "@/lib/server/proposals/expire-proposals";
import { deliverReviewWebhook } from "@/lib/server/notifications/deliver-review-webhook";
import { executeRefund } from "@/lib/server/executions/execute-refund";
import { reconcileExecution } from "@/lib/server/executions/reconcile-execution";
import { sweepExecutions } from "@/lib/server/executions/sweep-executions";
import { verifyAllAuditChains } from "@/lib/server/audit/verify-all-chains";
import { purgeAllAuditEvents } from "@/lib/server/audit/purge-audit-events";
import { purgeBudgetCounters } from "@/lib/server/agent/purge-budget-counters";
import { purgeWebhookEvents } from "@/lib/server/executions/settle-from-webhook";
import { purgeKeyRefusalWindows } from "@/lib/server/agent/record-key-refusal";

/**
 * The task registry: name → handler. Adding a task is one entry here (and, if it recurs, one crontab
 * line below); enqueue it with `enqueueJob(tx, "<name>", payload)` inside the transaction that makes it
 * necessary. Handlers must be idempotent: a job can run again after a crash (at-least-once).
 * Several worker processes can run against one database: graphile-worker hands each job to one of
 * them, so handlers keep no state in memory.
 */
export const tasks: TaskList = {
  /** Marks pending proposals past their expiry as `expired` (cron, every minute). */
  expire_proposals: defineTask({
    payload: z.object({}).loose(),
    run: async () => {
      await expireProposals();
    },
  }),

  /** POSTs one signed reviewer notification; retried with backoff, `failed` after the last attempt. */
  deliver_review_webhook: defineTask({
    payload: z.object({ deliveryId: z.uuid() }),
    run: async ({ deliveryId }, ctx) => {
      await deliverReviewWebhook({ deliveryId, attempt: ctx.attempt, isLastAttempt: ctx.isLastAttempt });
    },
  }),

  /** Executes an approved proposal once (revalidate, commit the idempotency key, call the provider). */
  execute_refund: defineTask({
    payload: z.object({ proposalId: z.uuid() }),
    run: async ({ proposalId }) => {
      await executeRefund(proposalId);
    },
  }),

  /** Asks the provider about an execution whose outcome is unknown or pending; never a blind re-send. */
  reconcile_execution: defineTask({
    payload: z.object({ executionId: z.uuid() }),
    run: async ({ executionId }) => {
      await reconcileExecution(executionId);
    },
  }),

  /** Re-enqueues approved proposals and in-doubt executions whose job died with a killed worker (cron, every minute). */
  sweep_executions: defineTask({
    payload: z.object({}).loose(),
    run: async () => {
      await sweepExecutions();
    },
  }),

  /** Walks every audit chain; a break writes an alert event and a stored check that /api/health reports (cron, hourly). */
  verify_audit_chain: defineTask({
    payload: z.object({}).loose(),
    run: async () => {
      await verifyAllAuditChains("job:verify_audit_chain");
    },
  }),

  /** Retention: purges events older than each tenant's retentionDays, leaving a checkpoint (cron, daily). */
  purge_audit_events: defineTask({
    payload: z.object({}).loose(),
    run: async () => {
      await purgeAllAuditEvents();
    },
  }),

  /**
   * Deletes gateway bookkeeping past its use: agent budget counters (window counters after a day, trace
   * counters after a week), refused-key windows after a day, and remembered provider webhook event ids past
   * the signature tolerance (cron, hourly).
   */
  purge_gateway_counters: defineTask({
    payload: z.object({}).loose(),
    run: async () => {
      await purgeBudgetCounters();
      await purgeWebhookEvents();
      await purgeKeyRefusalWindows();
    },
  }),
};

export type TaskName = keyof typeof tasks;

/**
 * Recurring jobs (graphile-worker crontab syntax; UTC). With several workers each tick is enqueued
 * once (graphile-worker records it in its known_crontabs table). `max=1`: a failed sweep is not
 * retried, the next minute's runs anyway; `jobKey`: at most one sweep waits while workers are down.
 */
export const crontab = [
  "* * * * * expire_proposals ?max=1&jobKey=expire_proposals",
  "* * * * * sweep_executions ?max=1&jobKey=sweep_executions",
  "17 * * * * verify_audit_chain ?max=1&jobKey=verify_audit_chain",
  "43 3 * * * purge_audit_events ?max=1&jobKey=purge_audit_events",
  "29 * * * * purge_gateway_counters ?max=1&jobKey=purge_gateway_counters",
].join("\n");
