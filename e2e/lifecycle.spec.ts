// The README's start command as a person uses it: first start (beside this suite's running instance, with the
// default ports taken: it picks free ones), a start after `kill -9` that clears the orphans and reuses the data,
// SIGTERM leaving no PostgreSQL behind; a second start refused for what the running instance holds.
import { expect, test } from "@playwright/test";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findFreePort } from "../scripts/lib/embedded-postgres";
import { publicDemoSecrets } from "../lib/config/demo-secrets";

test.describe.configure({ mode: "serial" });
// Two full starts, each with its PostgreSQL, payment sandbox and the demo tenants' sandbox shops: under a minute on a
// quiet 2-core machine, two or more on a loaded one.
test.setTimeout(300_000);

type Started = { proc: ChildProcess; output: () => string };

/** `npm start` on a data directory; without pgPort, on the default PostgreSQL and sandbox ports (or free ones). */
function start(dataDir: string, pgPort: number | null, port: number): Started {
  let out = "";
  const env: Record<string, string | undefined> = {
    ...process.env,
    EMBEDDED_PG_DIR: dataDir,
    EMBEDDED_PG_PORT: pgPort === null ? undefined : String(pgPort),
    PROVIDER_SANDBOX_PORT: pgPort === null ? undefined : "0",
    NEXT_TELEMETRY_DISABLED: "1",
    LOG_LEVEL: "warn",
  };
  for (const k of [
    "DATABASE_URL",
    "EMBEDDED_PG_EPHEMERAL",
    "E2E_DATABASE_URL_FILE",
    "E2E_LOG_FILE",
    ...(pgPort === null ? ["EMBEDDED_PG_PORT", "PROVIDER_SANDBOX_PORT"] : []),
  ])
    delete env[k];
  const proc = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "scripts/start.ts", "--port", String(port)],
    {
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
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
const postmasterPid = (dataDir: string) =>
  existsSync(join(dataDir, "postmaster.pid"))
    ? Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0])
    : null;

test("first start beside a running one picks free ports and never reaches the other's sandbox; kill -9 does not block the next start, which reuses the data; SIGTERM leaves nothing", async () => {
  // The running instance is this suite's own server (playwright.config.ts webServer).
  const runningPort = Number(process.env.E2E_PORT ?? 3100);
  const runningSandbox = readFileSync(".data/e2e-sandbox-url", "utf8").trim();
  const dataDir = mkdtempSync(join(tmpdir(), "lifecycle-pg-"));
  const port = await findFreePort();
  const health = async () => (await fetch(`http://localhost:${port}/api/health`).catch(() => null))?.ok === true;
  const blockers: Server[] = [];
  // Every start of this test, so a failed or timed-out run stops what it started (finally, below).
  const launched: Started[] = [];
  const launch = (pgPort: number | null) => {
    const started = start(dataDir, pgPort, port);
    launched.push(started);
    return started;
  };
  try {
    // Defaults taken (54329, 12111: held here if nobody holds them already): the first start picks free ports.
    for (const p of [54329, 12111]) {
      const held = await listenOn(p).catch(() => null);
      if (held) blockers.push(held.server);
    }
    // First start: demo loaded, URL printed.
    let s = launch(null);
    // A first start makes its database (initdb, migrations, the demo): up to 150 s on a machine busy with other
    // heavy work (a CI run met 90 s), well inside the test's 300 s; it returns as soon as the start is ready.
    await waitFor(() => s.output().includes(`ready: http://localhost:${port}`), "first start", 150_000);
    expect(s.output()).toContain("demo data loaded");
    const pgPort = Number(/embedded PostgreSQL on port (\d+)/.exec(s.output())?.[1]);
    const sandboxUrl = /sandbox payment provider on (http:\/\/\S+)/.exec(s.output())?.[1] ?? "";
    expect(pgPort).toBeGreaterThan(0);
    expect(pgPort).not.toBe(54329);
    expect(sandboxUrl).not.toBe("");
    expect(sandboxUrl).not.toBe(runningSandbox);
    expect(new URL(sandboxUrl).port).not.toBe("12111");
    expect((await fetch(`http://localhost:${runningPort}/api/health`)).ok).toBe(true); // the first one is untouched
    for (const b of blockers.splice(0)) b.close();
    const pg1 = postmasterPid(dataDir)!;
    expect(alive(pg1)).toBe(true);

    // kill -9 of the start process: PostgreSQL and the app server are orphaned…
    s.proc.kill("SIGKILL");
    await waitFor(() => s.proc.exitCode !== null || s.proc.signalCode !== null, "SIGKILL");
    expect(alive(pg1)).toBe(true);
    expect(await health()).toBe(true);

    // …and the next start clears them away and reuses the data (on the PostgreSQL port the first one picked).
    s = launch(pgPort);
    await waitFor(() => s.output().includes("ready:"), "start after kill -9");
    expect(s.output()).toContain("leftover app server");
    expect(s.output()).toContain("demo data: already present");
    expect(s.output()).toContain("migrations: up to date");
    expect(alive(pg1)).toBe(false);
    expect(await health()).toBe(true);
    const pg2 = postmasterPid(dataDir)!;
    expect(alive(pg2)).toBe(true);

    // SIGTERM to the start process alone (a container's stop): it stops the app, the sandboxes and PostgreSQL.
    // Ctrl-C (SIGINT) and SIGHUP go to the same shutdown (scripts/start.ts).
    s.proc.kill("SIGTERM");
    await waitFor(() => s.proc.exitCode !== null, "exit after SIGTERM");
    expect(s.output()).toContain(`"service":"start","msg":"stopped"`);
    expect(alive(pg2)).toBe(false);
    expect(await health()).toBe(false);
  } finally {
    for (const b of blockers) b.close();
    // SIGTERM stops a start's app, sandboxes, shops and PostgreSQL: nothing outlives the spec on a CI machine.
    for (const { proc } of launched.filter((l) => l.proc.exitCode === null && l.proc.signalCode === null)) {
      proc.kill("SIGTERM");
      await waitFor(() => proc.exitCode !== null, "exit after SIGTERM", 20_000).catch(() => undefined);
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("a production start (DATABASE_URL set) refuses missing or demo secrets", async () => {
  const { spawnSync } = await import("node:child_process");
  const res = spawnSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "scripts/start.ts", "--port", "1"],
    {
      env: {
        ...process.env,
        DATABASE_URL: "postgresql://u:p@127.0.0.1:1/x",
        APP_MODE: "",
        NEXTAUTH_SECRET: publicDemoSecrets.NEXTAUTH_SECRET,
        AUDIT_HMAC_KEY: "",
      },
      encoding: "utf8",
    },
  );
  expect(res.status).toBe(1);
  expect(res.stderr).toContain("refusing to start in production mode");
  expect(res.stderr).toContain("NEXTAUTH_SECRET is the public demo value");
  expect(res.stderr).toContain("AUDIT_HMAC_KEY is not set");
});

// (A second instance beside a running one that picks free ports and never reaches the other's sandbox: the first
// start of the test above, which is such an instance.)
test("a second npm start beside a running one refuses taken ports and data; the running sandbox refuses the public demo key", async () => {
  // The running instance is this suite's own server (playwright.config.ts webServer).
  const runningPort = Number(process.env.E2E_PORT ?? 3100);
  const runningSandbox = readFileSync(".data/e2e-sandbox-url", "utf8").trim();
  const runningSandboxPort = Number(new URL(runningSandbox).port);
  const refusal = (env: Record<string, string>, port: number) => {
    const full: Record<string, string | undefined> = {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      LOG_LEVEL: "warn",
      ...env,
    };
    for (const k of ["DATABASE_URL", "EMBEDDED_PG_EPHEMERAL", "E2E_DATABASE_URL_FILE", "E2E_LOG_FILE"]) delete full[k];
    const res = spawnSync(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "scripts/start.ts", "--port", String(port)],
      {
        env: full as NodeJS.ProcessEnv,
        encoding: "utf8",
        timeout: 120_000,
      },
    );
    return { status: res.status, stderr: res.stderr };
  };
  const dirs: string[] = [];
  const freshDir = () => {
    const d = mkdtempSync(join(tmpdir(), "second-pg-"));
    dirs.push(d);
    return d;
  };
  const blockers: Server[] = [];
  try {
    // Its HTTP port.
    let r = refusal({ EMBEDDED_PG_DIR: freshDir() }, runningPort);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/set PORT \(or --port\)/);

    // A data directory that a running process owns (the owner file names a live node process: us).
    const owned = freshDir();
    writeFileSync(join(owned, "embedded-owner.pid"), String(process.pid));
    r = refusal({ EMBEDDED_PG_DIR: owned }, await findFreePort());
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("set EMBEDDED_PG_DIR");

    // A PostgreSQL port asked for explicitly but taken.
    const takenPg = await listenOn(0);
    blockers.push(takenPg.server);
    r = refusal({ EMBEDDED_PG_DIR: freshDir(), EMBEDDED_PG_PORT: String(takenPg.port) }, await findFreePort());
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("set EMBEDDED_PG_PORT");

    // The running instance's sandbox port, asked for explicitly.
    r = refusal(
      { EMBEDDED_PG_DIR: freshDir(), PROVIDER_SANDBOX_PORT: String(runningSandboxPort) },
      await findFreePort(),
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("set PROVIDER_SANDBOX_PORT");

    // Each instance's sandbox accepts only its own app's key, made for that run: not the public demo key.
    const publicKey = await fetch(`${runningSandbox}/v1/refunds`, {
      method: "POST",
      headers: {
        authorization: "Bearer sk_test_demo_sandbox_do_not_use_in_production",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "payment_intent=pi_x&amount=100",
    });
    expect(publicKey.status).toBe(401);
  } finally {
    for (const s of blockers) s.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
});

function listenOn(port: number): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve({ server, port: (server.address() as AddressInfo).port }));
  });
}
