// A PostgreSQL restart under `npm start`'s children (scripts/lib/supervise.ts): the sandbox payment provider and
// the job worker exit when their database goes away; the supervisor starts them again, with a growing pause,
// logging each exit and restart as JSON — until then nothing restarted them.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, expect, it } from "vitest";
import { prepareJobQueue } from "@/lib/server/jobs/schema";
import { findFreePort, startEmbeddedPostgres, type EmbeddedServer } from "../../scripts/lib/embedded-postgres";
import { applyMigrations } from "../../scripts/lib/migrations";
import { supervise, type Supervised } from "../../scripts/lib/supervise";

const dataDir = mkdtempSync(join(tmpdir(), "restart-pg-"));
let server: EmbeddedServer | null = null;
const supervised: Supervised[] = [];
afterAll(async () => {
  await Promise.all(supervised.map((s) => s.stop(5_000)));
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const waitFor = async (cond: () => boolean | Promise<boolean>, what: string, ms = 60_000) => {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 200)))
    if (await cond()) return;
  throw new Error(`timed out waiting for ${what}`);
};

it(
  "restarts the worker and the sandbox provider when they exit around a database restart, with backoff, logged as JSON",
  { timeout: 180_000 },
  async () => {
    const pgPort = await findFreePort();
    server = await startEmbeddedPostgres({ dataDir, port: pgPort, database: "app" });
    await applyMigrations(server.url);
    await prepareJobQueue(server.url);

    const lines: Record<string, unknown>[] = [];
    const log = pino(
      { base: { service: "start" } },
      new Writable({ write: (chunk, _e, done) => (lines.push(JSON.parse(String(chunk))), done()) }),
    );
    // Each process the supervisor starts, with its own output: "back" means the CURRENT process of a child is
    // alive and has printed its ready line. (Counting ready lines against exits never converged when a restart
    // attempt died before its ready line, the database still down: one more exit, no more ready lines.)
    const instances = {
      sandbox: [] as { proc: ChildProcess; out: string }[],
      worker: [] as { proc: ChildProcess; out: string }[],
    };
    const sandboxPort = await findFreePort();
    const apiKey = `sk_test_${randomUUID().replace(/-/g, "")}`;
    const tsx = ["--conditions=react-server", "--import", "tsx"];
    const child = (name: "sandbox" | "worker", args: string[], env: NodeJS.ProcessEnv) => () => {
      const c = spawn(process.execPath, [...tsx, ...args], { stdio: ["ignore", "pipe", "pipe"], env });
      const instance = { proc: c, out: "" };
      instances[name].push(instance);
      c.stdout.on("data", (d) => (instance.out += String(d)));
      c.stderr.on("data", (d) => (instance.out += String(d)));
      return c;
    };
    const sandbox = supervise({
      name: "sandbox",
      log,
      basePauseMs: 500,
      start: child(
        "sandbox",
        [
          "scripts/provider-sandbox.ts",
          "--port",
          String(sandboxPort),
          "--database-url",
          server.url.replace(/\/app$/, "/sandbox"),
          "--api-key",
          apiKey,
        ],
        {
          ...process.env,
          DATABASE_URL: "",
        },
      ),
    });
    const worker = supervise({
      name: "worker",
      log,
      basePauseMs: 500,
      start: child("worker", ["scripts/worker.ts"], {
        ...process.env,
        DATABASE_URL: server.url,
        APP_MODE: "demo",
        LOG_LEVEL: "info",
      }),
    });
    supervised.push(sandbox, worker);
    const serving = (s: Supervised, name: "sandbox" | "worker", ready: string) => {
      const last = instances[name].at(-1);
      const current = s.current();
      return (
        !!last &&
        current === last.proc &&
        current.exitCode === null &&
        current.signalCode === null &&
        last.out.includes(ready)
      );
    };
    const bothServing = () =>
      serving(sandbox, "sandbox", "listening on") && serving(worker, "worker", "worker started");
    // Serving, and still serving 3 s later (a child that has not noticed the database went away yet may still exit).
    const bothServingSteadily = (what: string) => {
      let since: number | null = null;
      return waitFor(
        () => {
          if (!bothServing()) {
            since = null;
            return false;
          }
          since ??= Date.now();
          return Date.now() - since >= 3_000;
        },
        what,
        120_000,
      );
    };
    const sandboxAnswers = async () =>
      (
        await fetch(`http://127.0.0.1:${sandboxPort}/v1/refunds?limit=1`, {
          headers: { authorization: `Bearer ${apiKey}` },
        }).catch(() => null)
      )?.status === 200;
    await waitFor(bothServing, "both children to start");
    expect(instances.sandbox.length + instances.worker.length).toBe(2);
    expect(await sandboxAnswers()).toBe(true);

    // The database restarts (same data, same port) after a few seconds down. Whether a child exits then depends on
    // what it was doing (the worker exits when a running job loses its pool; the operator's report had the sandbox
    // killed): whichever exits is restarted, and both serve again afterwards.
    await server.stop();
    server = null;
    await new Promise((r) => setTimeout(r, 8_000));
    server = await startEmbeddedPostgres({ dataDir, port: pgPort, database: "app" });
    await bothServingSteadily("every exited child back");
    await waitFor(sandboxAnswers, "the sandbox to answer after the restart");

    // Killed outright (as a restart did in the report): each is started again, the sandbox on the same port.
    const before = { sandbox: sandbox.restarts(), worker: worker.restarts() };
    sandbox.current()!.kill("SIGKILL");
    worker.current()!.kill("SIGKILL");
    await waitFor(
      () => sandbox.restarts() === before.sandbox + 1 && worker.restarts() === before.worker + 1,
      "both restarts",
    );
    await bothServingSteadily("both children to come back");
    await waitFor(sandboxAnswers, "the sandbox to answer again");

    // Each exit logged with its pause; pauses double while the database is still down (backoff).
    const exits = (name: string) =>
      lines
        .filter((l) => l.process === name && l.msg === `${name} exited; restarting`)
        .map((l) => l.restartInMs as number);
    for (const name of ["sandbox", "worker"]) {
      const pauses = exits(name);
      expect(pauses[0]).toBe(500);
      // Quick failures in a row double the pause (the count resets only after a run of 2 minutes).
      pauses.forEach((p, i) => expect(p).toBe(Math.min(60_000, 500 * 2 ** i)));
      expect(lines.some((l) => l.process === name && l.msg === `${name} restarting` && l.level === 30)).toBe(true);
    }
  },
);
