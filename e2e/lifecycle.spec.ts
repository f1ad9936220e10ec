// The README's start command as a person uses it: first start, second start reusing the data,
// Ctrl-C / SIGTERM leaving no PostgreSQL behind, and a start after `kill -9`.
import { expect, test } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findFreePort } from "../scripts/lib/embedded-postgres";

test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);

type Started = { proc: ChildProcess; output: () => string };

function start(dataDir: string, pgPort: number, port: number): Started {
  let out = "";
  const env: Record<string, string | undefined> = { ...process.env, EMBEDDED_PG_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), PROVIDER_SANDBOX_PORT: "0", NEXT_TELEMETRY_DISABLED: "1", LOG_LEVEL: "warn" };
  delete env.DATABASE_URL;
  delete env.EMBEDDED_PG_EPHEMERAL;
  delete env.E2E_DATABASE_URL_FILE;
  const proc = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/start.ts", "--port", String(port)], { env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
  proc.stdout.on("data", (d) => (out += String(d)));
  proc.stderr.on("data", (d) => (out += String(d)));
  return { proc, output: () => out };
}

async function waitFor(cond: () => boolean | Promise<boolean>, what: string, ms = 90_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const postmasterPid = (dataDir: string) => (existsSync(join(dataDir, "postmaster.pid")) ? Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]) : null);

test("start, restart with the same data, SIGTERM leaves nothing, kill -9 does not block the next start", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "lifecycle-pg-"));
  const pgPort = await findFreePort();
  const port = await findFreePort();
  const health = async () => (await fetch(`http://localhost:${port}/api/health`).catch(() => null))?.ok === true;
  try {
    // First start: demo loaded, URL printed.
    let s = start(dataDir, pgPort, port);
    await waitFor(() => s.output().includes(`ready: http://localhost:${port}`), "first start");
    expect(s.output()).toContain("demo data loaded");
    const pg1 = postmasterPid(dataDir)!;
    expect(alive(pg1)).toBe(true);

    // SIGTERM: app and PostgreSQL stop.
    s.proc.kill("SIGTERM");
    await waitFor(() => s.proc.exitCode !== null, "exit after SIGTERM");
    expect(s.output()).toContain("[start] stopped");
    expect(alive(pg1)).toBe(false);
    expect(await health()).toBe(false);

    // Second start reuses the data.
    s = start(dataDir, pgPort, port);
    await waitFor(() => s.output().includes("ready:"), "second start");
    expect(s.output()).toContain("demo data: already present");
    expect(s.output()).toContain("migrations: up to date");

    // kill -9 of the start process: PostgreSQL and the app server are orphaned…
    const pg2 = postmasterPid(dataDir)!;
    s.proc.kill("SIGKILL");
    await waitFor(() => s.proc.exitCode !== null || s.proc.signalCode !== null, "SIGKILL");
    expect(alive(pg2)).toBe(true);
    expect(await health()).toBe(true);

    // …and the next start clears them away and runs.
    s = start(dataDir, pgPort, port);
    await waitFor(() => s.output().includes("ready:"), "start after kill -9");
    expect(s.output()).toContain("leftover app server");
    expect(alive(pg2)).toBe(false);
    expect(await health()).toBe(true);
    s.proc.kill("SIGINT");
    await waitFor(() => s.proc.exitCode !== null, "exit after SIGINT");
    expect(postmasterPid(dataDir) === null || !alive(postmasterPid(dataDir)!)).toBe(true);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("a production start (DATABASE_URL set) refuses missing or demo secrets", async () => {
  const { spawnSync } = await import("node:child_process");
  const res = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/start.ts", "--port", "1"], {
    env: { ...process.env, DATABASE_URL: "postgresql://u:p@127.0.0.1:1/x", APP_MODE: "", NEXTAUTH_SECRET: "demo-only-nextauth-secret-do-not-use-in-production-0000", AUDIT_HMAC_KEY: "" },
    encoding: "utf8",
  });
  expect(res.status).toBe(1);
  expect(res.stderr).toContain("refusing to start in production mode");
  expect(res.stderr).toContain("NEXTAUTH_SECRET is the public demo value");
  expect(res.stderr).toContain("AUDIT_HMAC_KEY is not set");
});
