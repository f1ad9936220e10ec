// Crash tests with real processes: the sandbox provider and scripts/worker.ts run as child processes on
// this file's database. A worker is killed with SIGKILL while it is inside the provider call, after the
// provider committed the refund and before the worker could record the answer; a new worker's
// reconciler settles the execution from the provider's own record. Then two workers on one database,
// and 50 parallel approvals of one proposal: one provider refund per proposal, always.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { sqlPool, withPgTransaction } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { DEFAULT_TRANSACTION } from "@/lib/server/db/transaction";
import { AppError } from "@/lib/domain/outcome";
import {
  approve,
  preparedProposal,
  refundedNotAboveCaptured,
  refundsByIntent,
  startSandbox,
  startWorker,
  waitFor,
  type Prepared,
  type Sandbox,
  type Worker,
} from "./execution-crash-support";

const serverUrl = inject("serverUrl");
let sandbox: Sandbox;
const workers: Worker[] = [];

beforeAll(async () => {
  sandbox = await startSandbox(serverUrl);
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop().catch(() => undefined)));
  await sandbox?.stop();
});

async function worker(env: Record<string, string> = {}): Promise<Worker> {
  const w = await startWorker(sandbox.url, env);
  workers.push(w);
  return w;
}

const statusesOf = async (ids: string[]) =>
  (await db().execution.findMany({ where: { proposalId: { in: ids } }, select: { status: true } })).map(
    (e) => e.status,
  );
const allSucceeded = async (ids: string[]) =>
  (await db().proposal.count({ where: { id: { in: ids }, status: "succeeded" } })) === ids.length;
const executeJobs = async (id: string) =>
  Number(
    (
      await sql<{
        n: bigint;
      }>`SELECT count(*) AS n FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
        WHERE t.identifier = 'execute_refund' AND j.payload->>'proposalId' = ${id}`.execute(sqlPool())
    ).rows[0]!.n,
  );

/** Every proposal: exactly one refund at the provider, `succeeded` here, refunded ≤ captured, no duplicate alarm. */
async function exactlyOnce(made: Prepared[]) {
  const refunds = await refundsByIntent(sandbox.control);
  const counts = made.map((p) => refunds[p.pi] ?? 0);
  expect(
    counts.filter((n) => n > 1),
    "duplicate refunds",
  ).toEqual([]);
  expect(
    counts.filter((n) => n === 0),
    "lost refunds",
  ).toEqual([]);
  expect(await db().proposal.count({ where: { id: { in: made.map((p) => p.id) }, status: "succeeded" } })).toBe(
    made.length,
  );
  expect(await db().execution.count({ where: { proposalId: { in: made.map((p) => p.id) } } })).toBe(made.length);
  for (const p of made) await refundedNotAboveCaptured(p.orderId);
  expect(await db().auditEvent.count({ where: { action: "execution:duplicate_detected" } })).toBe(0);
  return counts;
}

describe("kill -9 of the worker between the provider's commit and recording the answer", () => {
  // Each round runs LANES worker processes with one job slot each, so each takes exactly one execution; all
  // of them are SIGKILLed inside the provider call, then LANES fresh workers settle what they left.
  const LANES = 4;
  const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 5);
  const KILLS = LANES * ROUNDS;
  // Longer than a kill takes even on a loaded machine (it follows the commit by a poll interval); the new workers'
  // boot takes about as long, so it costs little.
  const STALE_MS = 8_000;
  const lanes = () =>
    Promise.all(
      Array.from({ length: LANES }, () =>
        worker({ EXECUTION_STALE_SENDING_MS: String(STALE_MS), WORKER_CONCURRENCY: "1" }),
      ),
    );
  const debug = (msg: string) => (process.env.CRASH_DEBUG ? console.info(`[crash] ${msg}`) : undefined);

  it(`repeated ${KILLS} times (${ROUNDS} rounds × ${LANES} workers): 0 duplicate refunds, 0 lost, refunded ≤ captured`, async () => {
    const started = Date.now();
    const made: Prepared[] = [];
    for (let i = 0; i < KILLS; i += 5)
      made.push(
        ...(await Promise.all(
          [0, 1, 2, 3, 4].filter((k) => i + k < KILLS).map((k) => preparedProposal(sandbox.control, 1_000 + i + k)),
        )),
      );
    for (const p of made) {
      // The worker sits inside the provider call (latency) while the provider commits, and the provider never
      // answers after committing (accept_then_hang): the worker is frozen after the commit and before it can
      // record anything — the window to kill it in. (The sandbox applies latency before its commit, so latency
      // alone would leave only microseconds between the commit and the answer.)
      await sandbox.control.addFault({ kind: "latency", latencyMs: 150, paymentIntent: p.pi });
      await sandbox.control.addFault({ kind: "accept_then_hang", paymentIntent: p.pi });
    }
    debug(`prepared ${KILLS} at ${Date.now() - started} ms`);
    let kills = 0;
    let killedInWindow = 0;
    let previous: Prepared[] = [];
    let live = await lanes();
    for (let r = 0; r < ROUNDS; r++) {
      // These workers' reconciler settles what the killed ones left `sending` (it asks the provider first).
      await waitFor(
        `round ${r - 1} settled by the next workers`,
        () => allSucceeded(previous.map((p) => p.id)),
        90_000,
        50,
      );
      debug(`round ${r - 1} settled at ${Date.now() - started} ms`);
      const batch = made.slice(r * LANES, (r + 1) * LANES);
      await Promise.all(batch.map((p) => approve(p))); // enqueues execute_refund; the live workers pick them up
      await waitFor(
        `round ${r}: the provider commits the refunds`,
        async () => {
          const refunds = await refundsByIntent(sandbox.control);
          return batch.every((p) => (refunds[p.pi] ?? 0) >= 1);
        },
        90_000,
      );
      debug(`round ${r} committed at ${Date.now() - started} ms`);
      for (const w of live) {
        await w.kill9();
        kills++;
      }
      // Nothing was recorded: every execution is still `sending`, its key committed before the call.
      killedInWindow += (await statusesOf(batch.map((p) => p.id))).filter((s) => s === "sending").length;
      previous = batch;
      live = await lanes();
      debug(`workers up at ${Date.now() - started} ms`);
    }
    await waitFor("the last round settled", () => allSucceeded(previous.map((p) => p.id)), 90_000, 50);
    // The killed workers' execute jobs are not left locked for graphile-worker's 4 hours: the next workers free them
    // within seconds (lib/server/jobs/worker-liveness.ts) and run them again, which finds the execution started.
    await waitFor(
      "the killed workers' jobs freed and run again",
      async () => (await Promise.all(made.map((p) => executeJobs(p.id)))).every((n) => n === 0),
      60_000,
      250,
    );
    await Promise.all(live.map((w) => w.stop()));

    expect(kills).toBe(KILLS);
    expect(killedInWindow).toBe(KILLS);
    const counts = await exactlyOnce(made);
    expect(counts).toEqual(made.map(() => 1));
    // Settled from the provider's record: no re-send was needed, the key was used once.
    const executions = await db().execution.findMany({ where: { proposalId: { in: made.map((p) => p.id) } } });
    expect(
      executions.every(
        (e) => e.status === "succeeded" && e.attempts === 1 && e.idempotencyKey === `refund-${e.proposalId}`,
      ),
    ).toBe(true);
    expect(executions.every((e) => e.reconciliations >= 1)).toBe(true);
    console.info(
      `[crash] ${kills} kill -9 inside the provider call after its commit (${killedInWindow} executions left sending), ${made.length} proposals, refunds per payment intent: ${JSON.stringify(counts)}, ${Math.round((Date.now() - started) / 1000)} s`,
    );
  }, 420_000);
});

describe("several workers, many approvals", () => {
  it("two workers on one database execute a batch (each job enqueued three times) → exactly one provider refund per proposal", async () => {
    const [a, b] = await Promise.all([worker(), worker()]);
    const made: Prepared[] = [];
    for (let i = 0; i < 10; i++) made.push(await preparedProposal(sandbox.control, 2_000 + i));
    // A little latency so that the two workers really overlap on the same proposals.
    for (const p of made)
      await sandbox.control.addFault({ kind: "latency", latencyMs: 100, paymentIntent: p.pi, once: false });
    await withPgTransaction(async (tx) => {
      // Extra execute_refund jobs without a job key: at-least-once delivery at its worst, raced by two processes.
      for (const p of made) {
        for (let k = 0; k < 2; k++)
          await sql`SELECT graphile_worker.add_job('execute_refund', ${JSON.stringify({ proposalId: p.id })}::json)`.execute(
            tx,
          );
      }
    }, DEFAULT_TRANSACTION);
    await Promise.all(made.map((p) => approve(p)));
    for (const p of made) expect(await executeJobs(p.id)).toBeGreaterThanOrEqual(1);
    await waitFor("every proposal executed", () => allSucceeded(made.map((p) => p.id)), 60_000, 100);
    const counts = await exactlyOnce(made);
    expect(counts).toEqual(made.map(() => 1));
    await Promise.all([a.stop(), b.stop()]);
  }, 120_000);

  it("50 parallel approvals of one two-approval proposal by two reviewers → approved once, one provider refund", async () => {
    const p = await preparedProposal(sandbox.control, 60_000); // above the tenant's dual-approval threshold
    expect((await db().proposal.findUniqueOrThrow({ where: { id: p.id } })).requiredApprovals).toBe(2);
    const results = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => approve(p, i % 2)));
    const ok = results.filter((r) => r.status === "fulfilled");
    expect(ok).toHaveLength(2);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(AppError);
    expect(await db().approval.count({ where: { proposalId: p.id } })).toBe(2);
    expect(await executeJobs(p.id)).toBe(1);
    const w = await worker();
    await waitFor("the proposal executed", () => allSucceeded([p.id]), 60_000, 100);
    await w.stop();
    expect(await exactlyOnce([p])).toEqual([1]);
  }, 120_000);
});
