// The ops view's use cases against a real database: listing with keyset pages, counts and the in-doubt
// queue, the 24 h series, "Check now" (enqueues the reconcile job, audited), and who may do what — a
// foreign tenant's execution is simply not found.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { listExecutions } from "@/lib/server/executions/list-executions";
import { getExecutionOverview } from "@/lib/server/executions/get-execution-overview";
import { checkExecutionNow } from "@/lib/server/executions/check-execution-now";
import { sweepExecutions } from "@/lib/server/executions/sweep-executions";
import { actorOf, approvedProposal, preparedProposal } from "./audit-support";
import { ES, US, ana, john } from "./gateway-support";
import { executionTimings } from "@/lib/server/env";

const hourAgo = new Date(Date.now() - 3600_000);
const ids: Record<"unknown" | "staleSending" | "succeeded" | "freshSending", string> = {
  unknown: "",
  staleSending: "",
  succeeded: "",
  freshSending: "",
};

beforeAll(async () => {
  const made: Awaited<ReturnType<typeof approvedProposal>>["proposal"][] = [];
  for (let i = 0; i < 4; i++) made.push((await approvedProposal(ana, 1_100 + i)).proposal);
  const row = (p: (typeof made)[number], data: Record<string, unknown>) =>
    db().execution.create({
      data: { tenantId: p.tenantId, proposalId: p.id, idempotencyKey: `refund-${p.id}`, attempts: 1, ...data },
    });
  ids.unknown = (
    await row(made[0]!, {
      status: "unknown",
      lastError: "timeout: no answer",
      createdAt: hourAgo,
      lastAttemptAt: hourAgo,
    })
  ).id;
  ids.staleSending = (
    await row(made[1]!, {
      status: "sending",
      createdAt: new Date(Date.now() - 1800_000),
      lastAttemptAt: new Date(Date.now() - 1800_000),
    })
  ).id;
  ids.succeeded = (
    await row(made[2]!, {
      status: "succeeded",
      providerRefundId: `re_ops_${made[2]!.id.slice(0, 8)}`,
      createdAt: hourAgo,
      settledAt: new Date(Date.now() - 1200_000),
    })
  ).id;
  ids.freshSending = (await row(made[3]!, { status: "sending", lastAttemptAt: new Date() })).id;
});

describe("listing and overview", () => {
  it("ops list the tenant's executions newest first, page by page without gaps or repeats, filtered by state", async () => {
    const ops = await actorOf(ES, "ops");
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listExecutions(ops, { limit: 1, ...(cursor ? { cursor } : {}) });
      seen.push(...page.rows.map((r) => r.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(Object.values(ids)));
    expect(seen[0]).toBe(ids.freshSending); // newest first
    const unknown = await listExecutions(ops, { state: "unknown" });
    expect(unknown.rows.map((r) => r.id)).toEqual([ids.unknown]);
    expect(unknown.rows[0]).toMatchObject({
      status: "unknown",
      attempts: 1,
      lastError: "timeout: no answer",
      currency: "EUR",
      idempotencyKey: expect.stringMatching(/^refund-/),
    });
    await expect(listExecutions(ops, { cursor: "not-a-cursor" })).rejects.toMatchObject({ code: "invalid_arguments" });
  });

  it("counts per state, the in-doubt queue (unknown, stale sending; not fresh sending, not settled) and the 24 h series", async () => {
    const o = await getExecutionOverview(await actorOf(ES, "admin"));
    expect(o.counts).toMatchObject({ unknown: 1, sending: 2, succeeded: 1, failed: 0, pending: 0 });
    expect(o.inDoubt.map((r) => [r.id, r.why])).toEqual([
      [ids.unknown, "unknown"],
      [ids.staleSending, "stale_sending"],
    ]);
    expect(o.chart).toHaveLength(25);
    const now = o.chart[o.chart.length - 1]!;
    expect(now.inDoubt).toBe(2); // unknown + stale sending; the settled one and the fresh send are not in doubt
    expect(now.oldestAgeSeconds).toBeGreaterThanOrEqual(3590);
    // Thirty minutes ago the succeeded one was still unsettled: three in doubt at some earlier hour.
    expect(Math.max(...o.chart.map((c) => c.inDoubt))).toBeGreaterThanOrEqual(2);
    expect(o.chart[0]!.inDoubt).toBe(0);
  });

  it("another tenant's ops see none of it", async () => {
    const us = await actorOf(US, "ops");
    const page = await listExecutions(us, { limit: 100 });
    expect(page.rows.map((r) => r.id)).not.toEqual(expect.arrayContaining([ids.unknown]));
    const o = await getExecutionOverview(us);
    expect(o.inDoubt.map((r) => r.id)).not.toContain(ids.unknown);
  });

  it("reviewers and auditors may not read executions", async () => {
    for (const role of ["reviewer", "auditor"] as const) {
      const actor = await actorOf(ES, role);
      await expect(listExecutions(actor, {})).rejects.toMatchObject({ code: "permission_denied" });
      await expect(getExecutionOverview(actor)).rejects.toMatchObject({ code: "permission_denied" });
    }
  });
});

describe("Check now", () => {
  const reconcileJobs = async (executionId: string) =>
    (
      await sql<{
        run_at: Date;
        key: string | null;
      }>`SELECT j.run_at, j.key FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE t.identifier = 'reconcile_execution' AND j.payload->>'executionId' = ${executionId}`.execute(sqlPool())
    ).rows;

  it("enqueues reconcile_execution now under the execution's job key (one job, moved forward) and audits it", async () => {
    const ops = await actorOf(ES, "ops");
    await sql`SELECT graphile_worker.add_job('reconcile_execution', ${JSON.stringify({ executionId: ids.unknown })}::json, run_at => now() + interval '1 hour', job_key => ${`reconcile:${ids.unknown}`})`.execute(
      sqlPool(),
    );
    const before = Date.now();
    expect(await checkExecutionNow(ops, { executionId: ids.unknown })).toEqual({
      executionId: ids.unknown,
      status: "unknown",
      queued: true,
      reconciliations: 0,
    });
    const jobs = await reconcileJobs(ids.unknown);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.key).toBe(`reconcile:${ids.unknown}`);
    expect(jobs[0]!.run_at.getTime()).toBeLessThanOrEqual(before + 1000);
    const event = await db().auditEvent.findFirstOrThrow({
      where: { action: "execution:check_now" },
      orderBy: { pos: "desc" },
    });
    expect(event).toMatchObject({ actorType: "staff", actorId: ops.userId, outcome: "result_pending" });
  });

  it("on a settled execution it queues nothing (and says so)", async () => {
    const ops = await actorOf(ES, "ops");
    expect(await checkExecutionNow(ops, { executionId: ids.succeeded })).toMatchObject({
      status: "succeeded",
      queued: false,
    });
    expect(await reconcileJobs(ids.succeeded)).toHaveLength(0);
  });

  it("only ops may; another tenant's execution is not found; a malformed id is invalid", async () => {
    await expect(checkExecutionNow(await actorOf(ES, "admin"), { executionId: ids.unknown })).rejects.toMatchObject({
      code: "permission_denied",
    });
    await expect(checkExecutionNow(await actorOf(ES, "reviewer"), { executionId: ids.unknown })).rejects.toMatchObject({
      code: "permission_denied",
    });
    await expect(checkExecutionNow(await actorOf(US, "ops"), { executionId: ids.unknown })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(checkExecutionNow(await actorOf(ES, "ops"), { executionId: "nope" })).rejects.toMatchObject({
      code: "invalid_arguments",
    });
  });
});

describe("the sweep behind a killed worker's locked jobs", () => {
  const jobsOf = async (task: string, field: string, id: string) =>
    (
      await sql<{
        id: string;
        run_at: Date;
        key: string | null;
        locked_at: Date | null;
      }>`SELECT j.id::text, j.run_at, j.key, j.locked_at FROM graphile_worker._private_jobs j
      JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = ${task} AND j.payload->>${field} = ${id} ORDER BY j.id`.execute(
        sqlPool(),
      )
    ).rows;
  const lockAsDeadWorker = (jobId: string) =>
    sql`UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'killed-worker' WHERE id = ${jobId}::bigint`.execute(
      sqlPool(),
    );

  it("an approved proposal whose execute job is locked by a dead worker gets a fresh job; an in-doubt execution likewise; waiting jobs keep their schedule", async () => {
    // Approved two minutes ago, never started: its execute job is held by a worker that was killed.
    const { proposal } = await approvedProposal(ana, 1_234);
    await db().proposal.update({ where: { id: proposal.id }, data: { decidedAt: new Date(Date.now() - 120_000) } });
    const [held] = await jobsOf("execute_refund", "proposalId", proposal.id);
    await lockAsDeadWorker(held!.id);
    // The in-doubt execution's reconcile job (made by Check now above) is held too.
    await sql`UPDATE "Execution" SET "updatedAt" = now() - interval '1 hour' WHERE id = ${ids.unknown}::uuid`.execute(
      sqlPool(),
    );
    const [reconcileHeld] = await jobsOf("reconcile_execution", "executionId", ids.unknown);
    await lockAsDeadWorker(reconcileHeld!.id);
    // The stale `sending` one has a healthy job waiting an hour from now: the sweep must not pull it forward.
    await sql`SELECT graphile_worker.add_job('reconcile_execution', ${JSON.stringify({ executionId: ids.staleSending })}::json, run_at => now() + interval '1 hour', job_key => ${`reconcile:${ids.staleSending}`})`.execute(
      sqlPool(),
    );
    const [waiting] = await jobsOf("reconcile_execution", "executionId", ids.staleSending);

    const result = await sweepExecutions();
    expect(result.executions).toBeGreaterThanOrEqual(1);
    expect(result.reconciliations).toBeGreaterThanOrEqual(2);

    const execJobs = await jobsOf("execute_refund", "proposalId", proposal.id);
    expect(execJobs).toHaveLength(2);
    expect(execJobs.filter((j) => j.locked_at === null && j.key === `execute:${proposal.id}`)).toHaveLength(1);
    const reconcileJobs = await jobsOf("reconcile_execution", "executionId", ids.unknown);
    expect(reconcileJobs.filter((j) => j.locked_at === null && j.key === `reconcile:${ids.unknown}`)).toHaveLength(1);
    const stale = await jobsOf("reconcile_execution", "executionId", ids.staleSending);
    expect(stale).toHaveLength(1);
    expect(stale[0]!.run_at.getTime()).toBe(waiting!.run_at.getTime());
    // Settled and fresh executions are left alone.
    expect(await jobsOf("reconcile_execution", "executionId", ids.succeeded)).toHaveLength(0);
    expect(await jobsOf("reconcile_execution", "executionId", ids.freshSending)).toHaveLength(0);
  });
});

describe("the 24 h chart counts episodes, not samples", () => {
  it("a 30-second in-doubt episode inside an hour is counted in that hour's bar (a sample at the hour would show 0)", async () => {
    // In shop-us, which has no other execution in that hour. The episode: from 10 min past the hour two hours
    // back (created one stale threshold earlier, so it became in doubt then) until it settled 30 s later.
    const { proposal } = await preparedProposal(john, 2_200, undefined, US);
    const { staleSendingMs } = executionTimings();
    const hourStart = new Date(Math.floor(Date.now() / 3600_000) * 3600_000 - 2 * 3600_000);
    const from = new Date(hourStart.getTime() + 10 * 60_000);
    await db().execution.create({
      data: {
        tenantId: proposal.tenantId,
        proposalId: proposal.id,
        idempotencyKey: `refund-${proposal.id}`,
        attempts: 1,
        status: "succeeded",
        providerRefundId: `re_episode_${proposal.id.slice(0, 8)}`,
        createdAt: new Date(from.getTime() - staleSendingMs),
        lastAttemptAt: new Date(from.getTime() - staleSendingMs),
        settledAt: new Date(from.getTime() + 30_000),
      },
    });
    const o = await getExecutionOverview(await actorOf(US, "ops"));
    const bucket = (at: Date) => o.chart.find((c) => c.at === at.toISOString());
    expect(bucket(hourStart)?.inDoubt).toBe(1);
    // Its oldest age is the one reached when it settled, not at the end of the hour.
    expect(bucket(hourStart)?.oldestAgeSeconds).toBe(Math.round((staleSendingMs + 30_000) / 1000));
    // The hours before and after, and now, saw nothing.
    expect(bucket(new Date(hourStart.getTime() - 3600_000))?.inDoubt).toBe(0);
    expect(bucket(new Date(hourStart.getTime() + 3600_000))?.inDoubt).toBe(0);
    expect(o.counters.inDoubt).toBe(0);
  });
});
