// Worker liveness (lib/server/jobs/worker-liveness.ts): each worker process holds a session-level advisory lock for
// its life; when its connection goes (SIGKILL, a lost machine), the sweep frees the jobs its job slots had locked —
// graphile-worker alone would leave them locked for 4 hours. Live processes and slots nobody recorded keep theirs.
// (Real `scripts/worker.ts` processes killed with SIGKILL: execution-crash.test.ts.)
import { EventEmitter } from "node:events";
import { afterEach, describe, expect, inject, it } from "vitest";
import type { WorkerEvents } from "graphile-worker";
import { pgPool, sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { withPgClient } from "@/lib/server/db/pg-client";
import { holdWorkerLiveness, unlockJobsOfDeadWorkers, type WorkerLiveness } from "@/lib/server/jobs/worker-liveness";
import { runWorker } from "@/lib/server/jobs/run-worker";
import { startWorker, waitFor } from "./execution-crash-support";

const held: WorkerLiveness[] = [];
afterEach(async () => {
  await Promise.all(held.splice(0).map((l) => l.stop()));
  await sql`DELETE FROM graphile_worker._private_jobs WHERE task_id IN
              (SELECT id FROM graphile_worker._private_tasks WHERE identifier = 'liveness_probe')`.execute(sqlPool());
  await sql`DELETE FROM "JobWorker"`.execute(sqlPool());
});

/** A worker process's liveness as runWorker takes it, with the given job slots created under it. */
async function processWith(slots: string[]) {
  const events: WorkerEvents = new EventEmitter();
  const lost: Error[] = [];
  const liveness = await holdWorkerLiveness({
    databaseUrl: process.env.DATABASE_URL!,
    events,
    onLost: (e) => lost.push(e),
  });
  held.push(liveness);
  for (const workerId of slots) events.emit("worker:create", { worker: { workerId } } as never);
  // The slots are recorded on the lock's own connection; wait until they are there.
  for (let i = 0; i < 100 && (await recordedSlots(liveness.instanceKey)).length < slots.length; i++)
    await new Promise((r) => setTimeout(r, 20));
  return { liveness, lost };
}

const recordedSlots = async (instanceKey: number) =>
  (
    await sql<{
      workerId: string;
    }>`SELECT "workerId" FROM "JobWorker" WHERE "instanceKey" = ${instanceKey}::int4 ORDER BY 1`.execute(sqlPool())
  ).rows.map((r) => r.workerId);

/** A job of a task nobody runs here, locked by `slot` as if that slot were running it. */
async function lockedJob(slot: string): Promise<string> {
  const [job] = (
    await sql<{ id: string }>`SELECT id::text FROM graphile_worker.add_job('liveness_probe', '{}'::json)`.execute(
      sqlPool(),
    )
  ).rows;
  await sql`UPDATE graphile_worker._private_jobs SET locked_by = ${slot}, locked_at = now() WHERE id = ${job!.id}::bigint`.execute(
    sqlPool(),
  );
  return job!.id;
}

const lockedBy = async (jobId: string) =>
  (
    await sql<{
      locked_by: string | null;
    }>`SELECT locked_by FROM graphile_worker._private_jobs WHERE id = ${jobId}::bigint`.execute(sqlPool())
  ).rows[0]?.locked_by;

// pg_locks lists the whole server's locks. An advisory lock belongs to one database, and other test files' databases
// on the same server hold liveness locks of their own workers: only this file's database is counted.

/** The server ends the session holding this process's lock: what a SIGKILL of the process does to it. */
async function killSession(instanceKey: number) {
  const { rows } = await sql<{ ended: boolean }>`
    SELECT pg_terminate_backend(pid) AS ended FROM pg_locks
     WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND classid = hashtext('job-worker-liveness')::oid AND objid = ${instanceKey}::int4::oid`.execute(sqlPool());
  expect(rows.map((r) => r.ended)).toEqual([true]);
}

const livenessLocksHeld = async () =>
  (
    await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_locks
      WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND classid = hashtext('job-worker-liveness')::oid`.execute(sqlPool())
  ).rows[0]!.n;

describe("the jobs of a worker process that died without stopping", () => {
  it("are freed, and its slots forgotten; a live process's jobs and a slot nobody recorded stay locked", async () => {
    // A live worker of another database on the same server: its lock is not this database's (advisory locks belong
    // to one database), and nothing here may count or free it.
    await withPgClient(inject("serverUrl"), async (elsewhere) => {
      await elsewhere.query("SELECT pg_advisory_lock(hashtext('job-worker-liveness'), 7)");
      await deadAndLive();
    });
  });

  async function deadAndLive() {
    const dead = await processWith(["worker-dead-1", "worker-dead-2"]);
    const live = await processWith(["worker-live-1"]);
    const deadJobs = [await lockedJob("worker-dead-1"), await lockedJob("worker-dead-2")];
    const liveJob = await lockedJob("worker-live-1");
    const strayJob = await lockedJob("worker-nobody-recorded");
    expect(await livenessLocksHeld()).toBe(2);

    // Both alive: nothing is freed.
    expect(await unlockJobsOfDeadWorkers()).toEqual({ processes: 0, jobsFreed: 0 });
    expect(await lockedBy(deadJobs[0]!)).toBe("worker-dead-1");

    await killSession(dead.liveness.instanceKey);
    await waitFor("the dead process's lock to go", async () => (await livenessLocksHeld()) === 1);
    expect(await unlockJobsOfDeadWorkers()).toEqual({ processes: 1, jobsFreed: 2 });

    expect(await lockedBy(deadJobs[0]!)).toBeNull();
    expect(await lockedBy(deadJobs[1]!)).toBeNull();
    expect(await lockedBy(liveJob)).toBe("worker-live-1");
    expect(await lockedBy(strayJob)).toBe("worker-nobody-recorded");
    expect(await recordedSlots(dead.liveness.instanceKey)).toEqual([]);
    expect(await recordedSlots(live.liveness.instanceKey)).toEqual(["worker-live-1"]);
    // The process whose lock broke was told (runWorker stops its runner then).
    expect(dead.lost.length).toBeGreaterThan(0);
    expect(live.lost).toEqual([]);
    // The sweep gave back every key it took: only the live process's lock is held.
    expect(await livenessLocksHeld()).toBe(1);
    // Nothing left to do for the next sweep.
    expect(await unlockJobsOfDeadWorkers()).toEqual({ processes: 0, jobsFreed: 0 });
  }

  it("two sweeps at once free a dead process's jobs once, without an error", async () => {
    const dead = await processWith(["worker-twice-1"]);
    const job = await lockedJob("worker-twice-1");
    await killSession(dead.liveness.instanceKey);
    await waitFor("the dead process's lock to go", async () => (await livenessLocksHeld()) === 0);
    const [a, b] = await Promise.all([unlockJobsOfDeadWorkers(), unlockJobsOfDeadWorkers()]);
    expect(a.processes + b.processes).toBe(1);
    expect(a.jobsFreed + b.jobsFreed).toBe(1);
    expect(await lockedBy(job)).toBeNull();
    expect(await livenessLocksHeld()).toBe(0);
  });

  it("a process that stops gracefully forgets its slots and drops its lock", async () => {
    const p = await processWith(["worker-stops-1", "worker-stops-2"]);
    expect(await recordedSlots(p.liveness.instanceKey)).toEqual(["worker-stops-1", "worker-stops-2"]);
    await held.splice(0)[0]!.stop();
    expect(await recordedSlots(p.liveness.instanceKey)).toEqual([]);
    expect(await livenessLocksHeld()).toBe(0);
    expect(p.lost).toEqual([]);
  });
});

describe("a worker process that loses its liveness lock", () => {
  it("stops and exits with an error (its supervisor starts a new one), since the others may now re-run its jobs", async () => {
    // A real `scripts/worker.ts`; it never calls the provider here.
    const w = await startWorker("http://127.0.0.1:9");
    try {
      await waitFor("the worker's pool recorded", async () => {
        const { rows } = await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM "JobWorker" WHERE "workerId" LIKE 'pool-%'`.execute(sqlPool());
        return rows[0]!.n === 1;
      });
      const exited = new Promise<number | null>((r) => w.child.once("exit", (code) => r(code)));
      const { rows } = await sql<{ ended: boolean }>`
        SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = 'job-worker-liveness'`.execute(
        sqlPool(),
      );
      expect(rows.map((r) => r.ended)).toEqual([true]);
      const stillRunning = new Promise<string>((r) => setTimeout(() => r("still running after 20 s"), 20_000).unref());
      expect(await Promise.race([exited, stillRunning])).toBe(1);
      expect(w.output()).toContain("worker liveness connection lost; stopping");
    } finally {
      await w.stop();
    }
  }, 60_000);
});

describe("a worker process whose job runner fails to start", () => {
  it("gives its liveness lock back and forgets its slots: nothing of it is left to look alive", async () => {
    // A role that may take the lock and record its slots, but has no right on graphile-worker's schema: the runner's
    // start (its schema check) fails after the lock is taken.
    const role = `liveness_nostart_${process.pid}_${Date.now()}`;
    const password = "liveness-nostart-password";
    const admin = sqlPool();
    await sql.raw(`CREATE ROLE "${role}" LOGIN PASSWORD '${password}'`).execute(admin);
    try {
      const { rows } = await sql<{ db: string }>`SELECT current_database() AS db`.execute(admin);
      await sql.raw(`GRANT CONNECT ON DATABASE "${rows[0]!.db}" TO "${role}"`).execute(admin);
      await sql.raw(`GRANT USAGE ON SCHEMA public TO "${role}"`).execute(admin);
      await sql.raw(`GRANT SELECT, INSERT, DELETE ON "JobWorker" TO "${role}"`).execute(admin);
      const url = new URL(process.env.DATABASE_URL!);
      url.username = role;
      url.password = password;
      await expect(runWorker({ databaseUrl: url.toString(), noCron: true })).rejects.toThrow(/permission denied/);
      expect(await livenessLocksHeld()).toBe(0);
      expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM "JobWorker"`.execute(admin)).rows[0]!.n).toBe(0);
    } finally {
      await sql.raw(`DROP OWNED BY "${role}"`).execute(admin);
      await sql.raw(`DROP ROLE "${role}"`).execute(admin);
    }
  }, 30_000);
});

describe("a sweep that fails mid-way", () => {
  it("frees nothing half-way, gives its key back, and its connection is destroyed, not pooled; the next sweep frees the jobs", async () => {
    const dead = await processWith(["worker-fault-1"]);
    const job = await lockedJob("worker-fault-1");
    await killSession(dead.liveness.instanceKey);
    await waitFor("the dead process's lock to go", async () => (await livenessLocksHeld()) === 0);
    // The fault: graphile-worker's unlock function is missing when the sweep calls it, after it took the key.
    const fn = "graphile_worker.force_unlock_workers";
    await sql.raw(`ALTER FUNCTION ${fn}(text[]) RENAME TO force_unlock_workers_gone`).execute(sqlPool());
    const pool = pgPool();
    let connections: [number, number];
    try {
      connections = [pool.totalCount, 0];
      expect(pool.idleCount).toBeGreaterThan(0); // the sweep takes an idle connection, opens none
      await expect(unlockJobsOfDeadWorkers()).rejects.toThrow(/force_unlock_workers/);
      connections[1] = pool.totalCount;
    } finally {
      await sql
        .raw(`ALTER FUNCTION graphile_worker.force_unlock_workers_gone(text[]) RENAME TO force_unlock_workers`)
        .execute(sqlPool());
    }
    // A connection that failed mid-sweep is not handed to the next caller.
    expect(connections[1]).toBe(connections[0] - 1);
    expect(await livenessLocksHeld()).toBe(0);
    expect(await recordedSlots(dead.liveness.instanceKey)).toEqual(["worker-fault-1"]);
    expect(await lockedBy(job)).toBe("worker-fault-1");

    expect(await unlockJobsOfDeadWorkers()).toEqual({ processes: 1, jobsFreed: 1 });
    expect(await lockedBy(job)).toBeNull();
  });
});
