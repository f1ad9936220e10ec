import { describe, expect, it } from "vitest";
import { crontabFromTable, jobKeyFor, jobKeyPrefix, jobNames, jobTable } from "./job-types";

const id = "6f1c1a7e-6a0b-4b8e-9c59-0d3c7a1e2f10";

describe("job table", () => {
  it("derives every per-subject job key from one place", () => {
    expect(jobKeyFor("execute_refund", { proposalId: id })).toBe(`execute:${id}`);
    expect(jobKeyFor("reconcile_execution", { executionId: id })).toBe(`reconcile:${id}`);
    expect(jobKeyFor("deliver_review_webhook", { deliveryId: id })).toBe(`deliver_review_webhook:${id}`);
    expect(jobKeyPrefix("reconcile_execution") + id).toBe(jobKeyFor("reconcile_execution", { executionId: id }));
    expect(jobKeyFor("deliver_notification", { notificationId: id })).toBe(`notify:${id}`);
    // The decision webhook trigger (SQL) spells this key: prisma/migrations/20261201103000_decision_webhooks.
    expect(jobKeyFor("deliver_decision_webhook", { deliveryId: id })).toBe(`deliver_decision_webhook:${id}`);
    expect(jobKeyFor("expire_proposals", {})).toBeNull();
  });

  it("refuses a payload without the key's subject", () => {
    expect(() => jobKeyFor("execute_refund", {} as never)).toThrow(/proposalId/);
    expect(jobTable.execute_refund.payload.safeParse({ proposalId: "nope" }).success).toBe(false);
  });

  it("the crontab lists each recurring task once, keyed by its name", () => {
    const lines = crontabFromTable().split("\n");
    expect(lines).toEqual([
      "* * * * * expire_proposals ?max=1&jobKey=expire_proposals",
      "* * * * * remind_expiring_proposals ?max=1&jobKey=remind_expiring_proposals",
      "* * * * * alert_stale_executions ?max=1&jobKey=alert_stale_executions",
      "* * * * * sweep_executions ?max=1&jobKey=sweep_executions",
      "17 * * * * verify_audit_chain ?max=1&jobKey=verify_audit_chain",
      "43 3 * * * purge_audit_events ?max=1&jobKey=purge_audit_events",
      "29 * * * * purge_gateway_counters ?max=1&jobKey=purge_gateway_counters",
    ]);
    expect(jobNames).toHaveLength(12);
  });
});
