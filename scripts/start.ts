// npm start: runs the product.
// - No DATABASE_URL: demo mode. Starts the embedded PostgreSQL (data kept in .data/pg between runs),
//   migrates, loads the deterministic demo, runs with the public demo secrets.
// - DATABASE_URL set: production mode (unless APP_MODE=demo). Migrates that database; refuses to start
//   without real secrets.
// Builds the app first when no build exists. Ctrl-C / SIGTERM stop the app and then PostgreSQL.
//   --dev         run `next dev` instead of a production build
//   --port N      HTTP port (default $PORT or 3000)
//   --rebuild     build even if a build exists
//   --no-worker   do not run the background job worker next to the app (run `npm run worker` elsewhere)
//   --no-sandbox  demo: do not start the sandbox payment provider (PAYMENT_PROVIDER_URL also skips it)
//   --no-demo-proposals  demo: do not top the tenants up to 3 proposals waiting for review
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import nextEnv from "@next/env";
import { demoPaymentProvider } from "../lib/config/demo-payment-provider";
import { findFreePort, isPortFree } from "./lib/embedded-postgres";
import { randomBytes } from "node:crypto";
import { demoSecretsFile, loadDemoSecrets, productionSecretProblems } from "../lib/config/demo-secrets";
import { prepareDatabase } from "./lib/database";
import { appRoleUrl, ensureAppRole } from "./lib/app-role";

// .env / .env.production, as Next itself would load them, before deciding the mode.
nextEnv.loadEnvConfig(process.cwd(), false, { info: () => undefined, error: console.error });

const args = process.argv.slice(2);
const dev = args.includes("--dev");
const withWorker = !args.includes("--no-worker");
const portArg = args.indexOf("--port");
const port = Number(portArg >= 0 ? args[portArg + 1] : (process.env.PORT ?? 3000));
const demo = !process.env.DATABASE_URL || process.env.APP_MODE === "demo";
// The demo listens on this machine only unless HOST says otherwise; production on every interface.
const host = process.env.HOST || (demo ? "127.0.0.1" : "0.0.0.0");
const say = (msg: string) => console.log(`[start] ${msg}`);
const refuse = (msg: string): never => {
  console.error(`[start] ${msg}`);
  process.exit(1);
};

if (!demo) {
  const problems = productionSecretProblems(process.env);
  if (problems.length) {
    console.error(`[start] refusing to start in production mode: ${problems.join("; ")}.`);
    console.error("[start] Set real secrets (see .env.example), or unset DATABASE_URL to run the demo.");
    process.exit(1);
  }
}

const baseEnv: NodeJS.ProcessEnv = { ...process.env, APP_MODE: demo ? "demo" : "production" };
if (demo) {
  for (const [k, v] of Object.entries(loadDemoSecrets())) baseEnv[k] ??= v;
  say(`demo mode: embedded PostgreSQL, demo data, secrets generated for this install (${demoSecretsFile()}); never use it for real money`);
}

// A `kill -9` of an earlier start can leave its app server running (and holding the port); a second
// `npm start` beside a running one must not take its port (or stop it).
const appPidFile = join(process.cwd(), ".data", `app-${port}.pid`);
await stopLeftoverApp(appPidFile);
if (!(await isPortFree(port, host))) refuse(`port ${port} is taken (another \`npm start\`?); set PORT (or --port) to a free port`);

const nextBin = join(process.cwd(), "node_modules", "next", "dist", "bin", "next");
if (!dev && (args.includes("--rebuild") || !existsSync(join(process.cwd(), ".next", "BUILD_ID")))) {
  say("building the app (first start only; `npm start -- --rebuild` after code changes)");
  const built = spawnSync(process.execPath, [nextBin, "build"], { stdio: "inherit", env: { ...baseEnv, NODE_ENV: "production" } });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const database = await prepareDatabase({ demo, log: say }).catch((error: unknown) => {
  console.error(`[start] database: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

// graphile-worker's schema, before the app can enqueue its first job (idempotent; workers also run it).
try {
  const { prepareJobQueue } = await import("../lib/server/jobs/schema");
  await prepareJobQueue(database.url);
} catch (error: unknown) {
  console.error(`[start] job queue: ${error instanceof Error ? error.message : String(error)}`);
  await database.embedded?.stop().catch(() => undefined);
  process.exit(1);
}

// Least privilege: the app and the worker connect as a role that owns nothing and cannot change or delete
// audit evidence (scripts/lib/app-role.ts, docs/database-roles.md); migrations above ran as the owner.
let appDatabaseUrl = database.url;
try {
  if (database.embedded) {
    const password = randomBytes(24).toString("base64url"); // a new one at every start
    await ensureAppRole(database.url, { password });
    appDatabaseUrl = appRoleUrl(database.url, password);
  } else if (process.env.DATABASE_URL_APP) {
    await ensureAppRole(database.url, { role: decodeURIComponent(new URL(process.env.DATABASE_URL_APP).username) });
    appDatabaseUrl = process.env.DATABASE_URL_APP;
  } else {
    say("warning: DATABASE_URL_APP is not set, so the app runs as the owner of the schema (docs/database-roles.md)");
  }
} catch (error: unknown) {
  console.error(`[start] database roles: ${error instanceof Error ? error.message : String(error)}`);
  await database.embedded?.stop().catch(() => undefined);
  process.exit(1);
}

// The browser tests read the database they should check from here.
if (process.env.E2E_DATABASE_URL_FILE) {
  mkdirSync(dirname(process.env.E2E_DATABASE_URL_FILE), { recursive: true });
  writeFileSync(process.env.E2E_DATABASE_URL_FILE, database.url);
}

// E2E_LOG_FILE: every line the app, the worker and the sandbox print is also kept in that file (the
// browser tests scan it for leaked secrets and personal data).
const logFile = process.env.E2E_LOG_FILE ? createWriteStream(process.env.E2E_LOG_FILE, { flags: "w" }) : null;
function echo(out: NodeJS.WriteStream, line: string) {
  out.write(`${line}\n`);
  logFile?.write(`${line}\n`);
}

const url = `http://localhost:${port}`;
const env: NodeJS.ProcessEnv = { ...baseEnv, DATABASE_URL: appDatabaseUrl, NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? url, PORT: String(port) };

// Demo: the sandbox payment provider as its own process (its own database on the same server), its
// webhooks pointed at this app, and the demo orders' payment intents registered with it. Production
// (or PAYMENT_PROVIDER_URL) talks to the configured provider instead.
let sandbox: ChildProcess | null = null;
if (demo && !process.env.PAYMENT_PROVIDER_URL && !args.includes("--no-sandbox")) {
  // PROVIDER_SANDBOX_PORT: that port or a refusal naming it ("0": any free port); unset: 12111, or a free
  // port when another instance's sandbox already listens there.
  const wanted = process.env.PROVIDER_SANDBOX_PORT ?? (process.env.EMBEDDED_PG_EPHEMERAL === "1" ? "0" : "");
  let sandboxPort: number;
  if (wanted === "0") sandboxPort = await findFreePort();
  else if (wanted) {
    sandboxPort = Number(wanted);
    if (!(await isPortFree(sandboxPort))) {
      await database.embedded?.stop().catch(() => undefined);
      refuse(`port ${sandboxPort} is taken (another instance's sandbox?); set PROVIDER_SANDBOX_PORT to a free port, or to 0 for any`);
    }
  } else sandboxPort = (await isPortFree(demoPaymentProvider.port)) ? demoPaymentProvider.port : await findFreePort();
  // Credentials made for this run only: this app's refunds are refused by any other instance's sandbox
  // (even one that later takes over the port), and another app's by ours.
  env.PAYMENT_PROVIDER_API_KEY = process.env.PAYMENT_PROVIDER_API_KEY || `sk_test_${randomBytes(24).toString("base64url")}`;
  env.PAYMENT_PROVIDER_WEBHOOK_SECRET = process.env.PAYMENT_PROVIDER_WEBHOOK_SECRET || `whsec_${randomBytes(24).toString("base64url")}`;
  sandbox = spawn(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      join("scripts", "provider-sandbox.ts"),
      "--port",
      String(sandboxPort),
      "--database-url",
      database.url.replace(/\/[^/?]+(\?.*)?$/, `/${demoPaymentProvider.database}`),
      "--webhook-url",
      `${url}/api/payments/webhook`,
    ],
    // The credentials go by environment, not argv (which `ps` shows to every local user).
    {
      stdio: ["ignore", "pipe", "pipe", "ipc"],
      env: {
        ...env,
        DATABASE_URL: "",
        PROVIDER_SANDBOX_API_KEYS: env.PAYMENT_PROVIDER_API_KEY,
        PROVIDER_SANDBOX_WEBHOOK_SECRET: env.PAYMENT_PROVIDER_WEBHOOK_SECRET,
      },
    },
  );
  const ready = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 60_000);
    for (const [stream, out] of [
      [sandbox!.stdout, process.stdout],
      [sandbox!.stderr, process.stderr],
    ] as const) {
      if (!stream) continue;
      createInterface({ input: stream }).on("line", (line) => {
        echo(out, `[sandbox] ${line}`);
        if (line.includes("listening on")) {
          clearTimeout(timer);
          resolve(true);
        }
      });
    }
    sandbox!.once("exit", () => resolve(false));
  });
  if (!(await ready)) {
    // Never fall back to the default sandbox URL: it may be another instance's sandbox.
    sandbox.kill("SIGTERM");
    await database.embedded?.stop().catch(() => undefined);
    refuse("the sandbox payment provider did not start (see [sandbox] lines); set PROVIDER_SANDBOX_PORT, or PAYMENT_PROVIDER_URL for a provider of your own");
  } else {
    env.PAYMENT_PROVIDER_URL = `http://127.0.0.1:${sandboxPort}`;
    // The browser tests drive the sandbox (payment intents, faults) through its control endpoint.
    if (process.env.E2E_DATABASE_URL_FILE) writeFileSync(join(dirname(process.env.E2E_DATABASE_URL_FILE), "e2e-sandbox-url"), env.PAYMENT_PROVIDER_URL);
    await registerDemoPaymentIntents(database.url, env.PAYMENT_PROVIDER_URL).catch((e: unknown) =>
      console.error(`[start] sandbox payment intents: ${String(e)}`),
    );
    say(`sandbox payment provider on ${env.PAYMENT_PROVIDER_URL}`);
  }
}
// Demo: a few proposals waiting for review at every start, prepared through the real agent gateway before
// the app listens (scripts/demo-pending.ts). A failure here is reported and the demo starts anyway.
if (demo && !args.includes("--no-demo-proposals")) {
  const topUp = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", join("scripts", "demo-pending.ts")], {
    env,
    encoding: "utf8",
    timeout: 120_000,
  });
  for (const line of `${topUp.stdout ?? ""}${topUp.stderr ?? ""}`.split("\n").filter(Boolean)) echo(process.stdout, `[demo] ${line}`);
  if (topUp.status !== 0) console.error(`[start] demo proposals: the top-up failed (exit ${topUp.status ?? topUp.signal}); the demo starts without them`);
}

const app: ChildProcess = spawn(process.execPath, [nextBin, dev ? "dev" : "start", "-p", String(port), "-H", host], {
  stdio: logFile ? ["ignore", "pipe", "pipe"] : "inherit",
  env,
});
if (logFile) {
  for (const [stream, out] of [
    [app.stdout, process.stdout],
    [app.stderr, process.stderr],
  ] as const) {
    if (stream) createInterface({ input: stream }).on("line", (line) => echo(out, line));
  }
}

if (app.pid) {
  mkdirSync(dirname(appPidFile), { recursive: true });
  // The app's pid, and ours: a live owner means a running instance, not a leftover.
  writeFileSync(appPidFile, `${app.pid} ${process.pid}`);
}

let stopping = false;

// The background job worker (scripts/worker.ts) as a second child, on the same database and env.
// Its lines are prefixed; over the IPC channel it notices when this process dies (even by kill -9)
// and stops itself. If it crashes it is restarted, with a growing pause.
let worker: ChildProcess | null = null;
let workerRestarts = 0;
function startWorker() {
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", join("scripts", "worker.ts")], {
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    env,
  });
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    if (stream) createInterface({ input: stream }).on("line", (line) => echo(out, `[worker] ${line}`));
  }
  const startedAt = Date.now();
  child.on("exit", (code, signal) => {
    if (stopping) return;
    if (Date.now() - startedAt > 120_000) workerRestarts = 0;
    const pause = Math.min(60_000, 1_000 * 2 ** workerRestarts++);
    console.error(`[start] the worker exited (${signal ?? `code ${code ?? "?"}`}); restarting in ${pause / 1000} s`);
    setTimeout(() => {
      if (!stopping) worker = startWorker();
    }, pause).unref();
  });
  return child;
}
if (withWorker) worker = startWorker();
else say("--no-worker: background jobs run only in `npm run worker` processes");

function stopChild(child: ChildProcess | null, graceMs: number): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  child.kill("SIGTERM");
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve();
    }, graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  say("stopping");
  // App and worker together (the worker lets running jobs finish), then the sandbox, all before PostgreSQL.
  await Promise.all([stopChild(app, 10_000), stopChild(worker, 20_000)]);
  await stopChild(sandbox, 10_000);
  rmSync(appPidFile, { force: true });
  await database.embedded?.stop().catch((e: unknown) => console.error(`[start] stopping PostgreSQL: ${String(e)}`));
  say("stopped");
  process.exit(code);
}

// embedded-postgres installs its own signal hooks that stop PostgreSQL and exit at once; we stop
// the app first and PostgreSQL after it, so ours replace them.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.removeAllListeners(signal);
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));
process.on("SIGHUP", () => void shutdown(0));
app.on("exit", (code) => {
  if (!stopping) {
    console.error(`[start] the app exited (code ${code ?? "?"})`);
    void shutdown(code ?? 1);
  }
});

// Announce the URL once the app answers its health check.
for (let i = 0; i < 240 && !stopping; i++) {
  try {
    const res = await fetch(`${url}/api/health`);
    if (res.ok) {
      say(`ready: ${url}  (sign-in credentials: npm run demo:credentials)`);
      break;
    }
  } catch {
    // not up yet
  }
  await new Promise((r) => setTimeout(r, 500));
}

async function stopLeftoverApp(pidFile: string) {
  if (!existsSync(pidFile)) return;
  const [pid = NaN, owner = NaN] = readFileSync(pidFile, "utf8")
    .trim()
    .split(/\s+/)
    .map((s) => Number.parseInt(s, 10));
  if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isRunningNode(owner)) {
    refuse(`another \`npm start\` (pid ${owner}) is serving port ${port}; stop it, or set PORT (or --port) to run a second instance`);
  }
  rmSync(pidFile, { force: true });
  if (!Number.isInteger(pid) || pid <= 0) return;
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return; // not running
  }
  if (!cmdline.includes("next")) return; // the pid was reused by something else
  say(`stopping a leftover app server (pid ${pid}) from an earlier run`);
  process.kill(pid, "SIGTERM");
  for (let i = 0; i < 50; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  process.kill(pid, "SIGKILL");
}

function isRunningNode(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("node");
  } catch {
    return true; // no /proc (macOS): trust the pid
  }
}

/** The sandbox must know each demo payment (as a payment intent) before it can refund it. */
async function registerDemoPaymentIntents(databaseUrl: string, sandboxUrl: string) {
  const { default: pg } = await import("pg");
  const { sandboxControl } = await import("../provider-sandbox/control-client");
  const control = sandboxControl(sandboxUrl, demoPaymentProvider.controlToken);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ ref: string; amount: number; currency: string; refunded: string }>(
      `SELECT p."providerPaymentRef" AS ref, p."amountMinor" AS amount, p.currency,
              COALESCE((SELECT sum(r."amountMinor") FROM "Refund" r WHERE r."paymentId" = p.id AND r.status = 'succeeded'), 0) AS refunded
         FROM "Payment" p`,
    );
    for (const r of rows) {
      const known = await control.paymentIntent(r.ref).then(
        () => true,
        () => false,
      );
      if (!known) await control.createPaymentIntent({ id: r.ref, amount: r.amount, currency: r.currency.trim(), amountRefunded: Number(r.refunded) });
    }
  } finally {
    await client.end();
  }
}
