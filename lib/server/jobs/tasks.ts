import "server-only";
import { defineTask } from "./define-task";
import { crontabFromTable, type JobName } from "./job-types";
import { expireProposals } from "@/lib/server/proposals/expire-proposals";
import { deliverReviewWebhook } from "@/lib/server/notifications/deliver-review-webhook";
import { deliverNotification } from "@/lib/server/notifications/deliver-notification";
import { deliverDecisionWebhook } from "@/lib/server/notifications/deliver-decision-webhook";
import { alertStaleSendingExecutions, remindExpiringProposals } from "@/lib/server/notifications/enqueue-notifications";
import { purgeOldNotifications } from "@/lib/server/notifications/purge-notifications";
import { executeApprovedProposal, reconcileAnyExecution } from "@/lib/server/executions/run-execution";
import { sweepExecutions } from "@/lib/server/executions/sweep-executions";
import { verifyAllAuditChains } from "@/lib/server/audit/verify-all-chains";
import { purgeAllAuditEvents } from "@/lib/server/audit/purge-audit-events";
import { purgeBudgetCounters } from "@/lib/server/agent/purge-budget-counters";
import { purgeKeyRefusalWindows } from "@/lib/server/agent/record-key-refusal";
import { purgeAgentLeftovers } from "@/lib/server/agent/purge-agent-leftovers";
import { purgeWebhookEvents } from "@/lib/server/executions/settle-from-webhook";
import type { Task } from "graphile-worker";

/**
 * The task registry: name → handler, one entry per row of the job table (job-types.ts, where the names,
 * payload schemas, job keys and cron schedules live; the `Record<JobName, …>` type makes a missing or
 * extra handler a compile error). Enqueue with `enqueueJob(tx, "<name>", payload)` inside the transaction
 * that makes it necessary. Handlers must be idempotent: a job can run again after a crash (at-least-once).
 * Several worker processes can run against one database: graphile-worker hands each job to one of them,
 * so handlers keep no state in memory.
 */
export const tasks: Record<JobName, Task> = {
  expire_proposals: defineTask("expire_proposals", async () => {
    await expireProposals();
  }),
  deliver_review_webhook: defineTask("deliver_review_webhook", async ({ deliveryId }, ctx) => {
    await deliverReviewWebhook({ deliveryId, attempt: ctx.attempt, isLastAttempt: ctx.isLastAttempt });
  }),
  deliver_decision_webhook: defineTask("deliver_decision_webhook", async ({ deliveryId }, ctx) => {
    await deliverDecisionWebhook({ deliveryId, attempt: ctx.attempt, isLastAttempt: ctx.isLastAttempt });
  }),
  deliver_notification: defineTask("deliver_notification", async ({ notificationId }, ctx) => {
    await deliverNotification({ notificationId, attempt: ctx.attempt, isLastAttempt: ctx.isLastAttempt });
  }),
  remind_expiring_proposals: defineTask("remind_expiring_proposals", async () => {
    await remindExpiringProposals();
  }),
  alert_stale_executions: defineTask("alert_stale_executions", async () => {
    await alertStaleSendingExecutions();
  }),
  execute_refund: defineTask("execute_refund", async ({ proposalId }) => {
    await executeApprovedProposal(proposalId);
  }),
  reconcile_execution: defineTask("reconcile_execution", async ({ executionId }) => {
    await reconcileAnyExecution(executionId);
  }),
  sweep_executions: defineTask("sweep_executions", async () => {
    await sweepExecutions();
  }),
  verify_audit_chain: defineTask("verify_audit_chain", async () => {
    await verifyAllAuditChains("job:verify_audit_chain");
  }),
  purge_audit_events: defineTask("purge_audit_events", async () => {
    await purgeAllAuditEvents();
  }),
  purge_gateway_counters: defineTask("purge_gateway_counters", async () => {
    await purgeBudgetCounters();
    await purgeWebhookEvents();
    await purgeKeyRefusalWindows();
    await purgeOldNotifications();
    await purgeAgentLeftovers();
  }),
};

export type TaskName = JobName;

/** Recurring jobs (from the job table). */
export const crontab = crontabFromTable();
