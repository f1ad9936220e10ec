// npm start: runs the product.
// - No DATABASE_URL: demo mode. Starts the embedded PostgreSQL (data kept in .data/pg between runs),
//   migrates, loads the deterministic demo, runs with the public demo secrets.
// - DATABASE_URL set: production mode (unless APP_MODE=demo). Migrates that database; refuses to start
//   without real secrets.
// Builds the app first when no build exists. Ctrl-C / SIGTERM stop the app and then PostgreSQL.
// Every line it prints, and every line its children print, is JSON (scripts/lib/json-log.ts); the production app
// runs behind scripts/serve.ts, which writes one access-log line per request. A production start refuses to serve
// a database holding demo tenants unless ALLOW_DEMO_TENANTS=1 (then it warns at every start).
//   --dev         run `next dev` instead of a production build
//   --port N      HTTP port (default $PORT or 3000)
//   --rebuild     build even if a build exists
//   --no-worker   do not run the background job worker next to the app (run `npm run worker` elsewhere)
//   --no-sandbox  demo: do not start the sandbox payment provider (PAYMENT_PROVIDER_URL also skips it)
//   --no-shop     demo: do not start the sandbox shops behind the demo tenants' action endpoints (the browser
//                 tests' instance, E2E_DATABASE_URL_FILE set, starts none either: their specs set endpoints themselves);
//                 SHOP_SANDBOX_PORT: the first shop's port, the next ones after it ("0": any free ports)
//   --no-demo-proposals  demo: do not top the tenants up to 3 proposals waiting for review
import { spawn, type ChildProcess } from "node:child_process";
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
import { asJsonLine, jsonLog } from "./lib/json-log";
import { supervise, type Supervised } from "./lib/supervise";
import { demoTenantSlugs } from "./lib/demo-tenants";
import type { DemoShopPlan } from "./lib/demo-shop";

const log = jsonLog("start");

// .env / .env.production, as Next itself would load them, before deciding the mode.
nextEnv.loadEnvConfig(process.cwd(), false, {
  info: () => undefined,
  error: (...a: unknown[]) => log.error(a.map(String).join(" ")),
});

const args = process.argv.slice(2);
const dev = args.includes("--dev");
const withWorker = !args.includes("--no-worker");
const portArg = args.indexOf("--port");
const port = Number(portArg >= 0 ? args[portArg + 1] : (process.env.PORT ?? 3000));
const demo = !process.env.DATABASE_URL || process.env.APP_MODE === "demo";
// The demo listens on this machine only unless HOST says otherwise; production on every interface.
const host = process.env.HOST || (demo ? "127.0.0.1" : "0.0.0.0");
const say = (msg: string) => log.info(msg);
const refuse = (msg: string): never => {
  log.error(msg);
  process.exit(1);
};

if (!demo) {
  const problems = productionSecretProblems(process.env);
  if (problems.length) {
    refuse(
      `refusing to start in production mode: ${problems.join("; ")}. Set real secrets (see .env.example and docs/operations.md), or unset DATABASE_URL to run the demo.`,
    );
  }
}

const baseEnv: NodeJS.ProcessEnv = { ...process.env, APP_MODE: demo ? "demo" : "production" };
if (demo) {
  for (const [k, v] of Object.entries(loadDemoSecrets())) baseEnv[k] ??= v;
  say(
    `demo mode: embedded PostgreSQL, demo data, secrets generated for this install (${demoSecretsFile()}); never use it for real money`,
  );
}

// A `kill -9` of an earlier start can leave its app server running (and holding the port); a second
// `npm start` beside a running one must not take its port (or stop it).
const appPidFile = join(process.cwd(), ".data", `app-${port}.pid`);
await stopLeftoverApp(appPidFile);
if (!(await isPortFree(port, host)))
  refuse(`port ${port} is taken (another \`npm start\`?); set PORT (or --port) to a free port`);

const database = await prepareDatabase({ demo, log: say }).catch((error: unknown) =>
  refuse(`database: ${error instanceof Error ? error.message : String(error)}`),
);

// Demo data never reaches production unnoticed: its logins have published passwords.
if (!demo) {
  const slugs = await demoTenantSlugs(database.url).catch((error: unknown) =>
    refuse(`database: ${error instanceof Error ? error.message : String(error)}`),
  );
  if (slugs.length && process.env.ALLOW_DEMO_TENANTS !== "1") {
    refuse(
      `refusing to serve: this database holds demo tenants (${slugs.join(", ")}) whose logins have published passwords. Use a database without them, or set ALLOW_DEMO_TENANTS=1 for a staging copy (docs/operations.md)`,
    );
  }
  if (slugs.length)
    log.warn(
      { demoTenants: slugs },
      "ALLOW_DEMO_TENANTS=1: serving a database that holds demo tenants with published passwords; never do this with real money",
    );
}

// graphile-worker's schema, before the app can enqueue its first job (idempotent; workers also run it).
try {
  const { prepareJobQueue } = await import("../lib/server/jobs/schema");
  await prepareJobQueue(database.url);
} catch (error: unknown) {
  await database.embedded?.stop().catch(() => undefined);
  refuse(`job queue: ${error instanceof Error ? error.message : String(error)}`);
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
  await database.embedded?.stop().catch(() => undefined);
  refuse(`database roles: ${error instanceof Error ? error.message : String(error)}`);
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

/** A child whose every output line is relayed as JSON (passed through when it already is), named by `source`. */
function spawnLogged(
  source: string,
  command: string,
  argv: string[],
  childEnv: NodeJS.ProcessEnv,
  onLine?: (line: string) => void,
  ipc = false,
): ChildProcess {
  const child = spawn(command, argv, {
    stdio: ipc ? ["ignore", "pipe", "pipe", "ipc"] : ["ignore", "pipe", "pipe"],
    env: childEnv,
  });
  for (const [stream, out, name] of [
    [child.stdout, process.stdout, "stdout"],
    [child.stderr, process.stderr, "stderr"],
  ] as const) {
    if (!stream) continue;
    createInterface({ input: stream }).on("line", (line) => {
      echo(out, asJsonLine(source, line, name));
      onLine?.(line);
    });
  }
  return child;
}

// After the database checks, so a refusal comes before a long first build.
const nextBin = join(process.cwd(), "node_modules", "next", "dist", "bin", "next");
if (!dev && (args.includes("--rebuild") || !existsSync(join(process.cwd(), ".next", "BUILD_ID")))) {
  say("building the app (first start only; `npm start -- --rebuild` after code changes)");
  const built = spawnLogged("build", process.execPath, [nextBin, "build"], { ...baseEnv, NODE_ENV: "production" });
  const code = await new Promise<number>((resolve) => built.once("exit", (c) => resolve(c ?? 1)));
  if (code !== 0) {
    await database.embedded?.stop().catch(() => undefined);
    refuse(`the build failed (exit ${code})`);
  }
}

const url = `http://localhost:${port}`;
const env: NodeJS.ProcessEnv = {
  ...baseEnv,
  DATABASE_URL: appDatabaseUrl,
  NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? url,
  PORT: String(port),
};

/**
 * A supervised child that prints "listening on" when it serves (the sandboxes): if it exits (a database restart takes
 * it down), it is started again with the same arguments. `ready` is false when the first start did not get that far
 * (it exited, or 60 s passed).
 */
function superviseListening(
  name: string,
  argv: string[],
  childEnv: NodeJS.ProcessEnv,
): { supervised: Supervised; ready: Promise<boolean> } {
  let listening: (() => void) | null = null;
  const ready = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 60_000);
    listening = () => {
      clearTimeout(timer);
      resolve(true);
    };
  });
  const supervised = supervise({
    name,
    log,
    start: () =>
      spawnLogged(
        name,
        process.execPath,
        argv,
        childEnv,
        (line) => {
          if (line.includes("listening on")) listening?.();
        },
        true,
      ),
  });
  // The first start must succeed: a sandbox that cannot start at all is a configuration problem.
  const firstExit = new Promise<boolean>((resolve) => supervised.current()?.once("exit", () => resolve(false)));
  return { supervised, ready: Promise.race([ready, firstExit]) };
}

// Demo: a sandbox shop per demo tenant behind its action endpoint (scripts/lib/demo-shop.ts), so the kinds the shop
// carries out (address change, cancellation) work. Planned and the endpoints saved — by the app's own use case, in a
// child with the app's environment — while the payment sandbox starts; the shops start once they have the secrets.
const withShops = demo && !args.includes("--no-shop") && !process.env.E2E_DATABASE_URL_FILE;
// Loaded only then: the demo data it reads is not the production start's business.
const demoShop = withShops ? await import("./lib/demo-shop") : null;
let shopPlans: DemoShopPlan[] = [];
let endpointSecrets: Promise<Record<string, string> | null> = Promise.resolve(null);
if (demoShop) {
  try {
    shopPlans = await demoShop.planDemoShops({
      serverUrl: database.url,
      env: process.env,
      anyPort: process.env.EMBEDDED_PG_EPHEMERAL === "1",
      avoid: [Number(process.env.PROVIDER_SANDBOX_PORT)].filter((p) => Number.isInteger(p) && p > 0),
    });
  } catch (error: unknown) {
    await database.embedded?.stop().catch(() => undefined);
    refuse(error instanceof Error ? error.message : String(error));
  }
  endpointSecrets = saveDemoEndpoints(shopPlans);
} else if (demo && args.includes("--no-shop")) {
  say("--no-shop: no sandbox shop; the demo tenants' action endpoints are left as they are");
}

// Demo: the sandbox payment provider as its own process (its own database on the same server), its
// webhooks pointed at this app, and the demo orders' payment intents registered with it. Production
// (or PAYMENT_PROVIDER_URL) talks to the configured provider instead.
let sandbox: Supervised | null = null;
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
      refuse(
        `port ${sandboxPort} is taken (another instance's sandbox?); set PROVIDER_SANDBOX_PORT to a free port, or to 0 for any`,
      );
    }
  } else sandboxPort = (await isPortFree(demoPaymentProvider.port)) ? demoPaymentProvider.port : await findFreePort();
  // Credentials made for this run only: this app's refunds are refused by any other instance's sandbox
  // (even one that later takes over the port), and another app's by ours.
  env.PAYMENT_PROVIDER_API_KEY =
    process.env.PAYMENT_PROVIDER_API_KEY || `sk_test_${randomBytes(24).toString("base64url")}`;
  env.PAYMENT_PROVIDER_WEBHOOK_SECRET =
    process.env.PAYMENT_PROVIDER_WEBHOOK_SECRET || `whsec_${randomBytes(24).toString("base64url")}`;
  const sandboxArgs = [
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
  ];
  // The credentials go by environment, not argv (which `ps` shows to every local user).
  const sandboxEnv = {
    ...env,
    DATABASE_URL: "",
    PROVIDER_SANDBOX_API_KEYS: env.PAYMENT_PROVIDER_API_KEY,
    PROVIDER_SANDBOX_WEBHOOK_SECRET: env.PAYMENT_PROVIDER_WEBHOOK_SECRET,
  };
  // Supervised: if it exits (a database restart takes it down), it is started again on the same port.
  const started = superviseListening("sandbox", sandboxArgs, sandboxEnv);
  sandbox = started.supervised;
  if (!(await started.ready)) {
    // Never fall back to the default sandbox URL: it may be another instance's sandbox.
    await sandbox.stop(5_000);
    await endpointSecrets;
    await database.embedded?.stop().catch(() => undefined);
    refuse(
      'the sandbox payment provider did not start (see the lines of service "sandbox"); set PROVIDER_SANDBOX_PORT, or PAYMENT_PROVIDER_URL for a provider of your own',
    );
  } else {
    env.PAYMENT_PROVIDER_URL = `http://127.0.0.1:${sandboxPort}`;
    // The browser tests drive the sandbox (payment intents, faults) through its control endpoint.
    if (process.env.E2E_DATABASE_URL_FILE)
      writeFileSync(join(dirname(process.env.E2E_DATABASE_URL_FILE), "e2e-sandbox-url"), env.PAYMENT_PROVIDER_URL);
    await registerDemoPaymentIntents(database.url, env.PAYMENT_PROVIDER_URL).catch((e: unknown) =>
      log.error(`sandbox payment intents: ${String(e)}`),
    );
    await refundDemoOrderElsewhere(env.PAYMENT_PROVIDER_URL, env.PAYMENT_PROVIDER_API_KEY).catch((e: unknown) =>
      log.error(`sandbox refund made elsewhere: ${String(e)}`),
    );
    // `npm run demo:credentials` prints this run's sandbox URL and test key (owner-readable only).
    writeFileSync(
      join(process.cwd(), ".data", "demo-payment-provider.json"),
      JSON.stringify({ url: env.PAYMENT_PROVIDER_URL, apiKey: env.PAYMENT_PROVIDER_API_KEY }) + "\n",
      {
        mode: 0o600,
      },
    );
    say(`sandbox payment provider on ${env.PAYMENT_PROVIDER_URL} (restarted if it exits)`);
  }
}
// The shops, supervised like the payment sandbox (same port, secret and token when restarted). Each one, once it
// serves, is told the demo orders it does not know (the shop owns fulfilment) — all while the demo proposals are
// prepared, which need only the endpoints saved. Both must be done before the app starts.
const shops: Supervised[] = [];
let shopsSetUp: Promise<boolean> = Promise.resolve(true);
if (demoShop) {
  const secrets = await endpointSecrets;
  if (!secrets) {
    await sandbox?.stop(10_000);
    await database.embedded?.stop().catch(() => undefined);
    refuse(
      "the demo tenants' action endpoints could not be saved (see the lines above); `npm start -- --no-shop` starts the demo without the sandbox shops",
    );
  }
  const { shopControl } = await import("../shop-sandbox/control-client");
  const setUp = shopPlans.map(async (plan) => {
    const started = superviseListening(
      `shop:${plan.tenant}`,
      demoShop.demoShopArgs(plan),
      demoShop.demoShopEnv(plan, secrets![plan.tenant]!),
    );
    shops.push(started.supervised);
    if (!(await started.ready)) return false;
    const told = await demoShop
      .tellShopDemoOrders(database.url, plan.tenant, shopControl(plan.url, plan.controlToken))
      .catch((e: unknown) => {
        log.error(`sandbox shop of ${plan.tenant}: telling it the demo orders failed: ${String(e)}`);
        return 0;
      });
    say(
      `sandbox shop of ${plan.tenant} on ${plan.url}, its action endpoint (restarted if it exits${told ? `; told about ${told} new orders` : ""})`,
    );
    return true;
  });
  shopsSetUp = Promise.all(setUp).then((all) => all.every(Boolean));
}

// Demo: a few proposals waiting for review at every start, prepared through the real agent gateway before
// the app listens (scripts/demo-pending.ts). A failure here is reported and the demo starts anyway.
if (demo && !args.includes("--no-demo-proposals")) {
  const topUp = spawnLogged(
    "demo",
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", join("scripts", "demo-pending.ts")],
    env,
  );
  const killer = setTimeout(() => topUp.kill("SIGKILL"), 120_000);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    topUp.once("exit", (c, sig) => resolve([c, sig])),
  );
  clearTimeout(killer);
  if (code !== 0) log.error(`demo proposals: the top-up failed (exit ${code ?? signal}); the demo starts without them`);
}

if (demoShop) {
  if (!(await shopsSetUp)) {
    await Promise.all([sandbox?.stop(10_000), ...shops.map((s) => s.stop(5_000))]);
    await database.embedded?.stop().catch(() => undefined);
    refuse(
      'a sandbox shop did not start (see the lines of service "shop:<tenant>"); set SHOP_SANDBOX_PORT, or `npm start -- --no-shop` to start without them',
    );
  }
  // Their control endpoints (set an order shipped, switch a fault: docs/shop-sandbox.md) with this run's tokens.
  writeFileSync(
    join(process.cwd(), ".data", "demo-shops.json"),
    JSON.stringify(
      Object.fromEntries(
        shopPlans.map((p) => [
          p.tenant,
          { url: p.url, actionEndpoint: `${p.url}/actions`, controlToken: p.controlToken },
        ]),
      ),
    ) + "\n",
    { mode: 0o600 },
  );
}

// Production: Next's handler behind scripts/serve.ts (JSON access log, no banner). Dev: `next dev`, its lines wrapped.
const app: ChildProcess = dev
  ? spawnLogged("next", process.execPath, [nextBin, "dev", "-p", String(port), "-H", host], env)
  : spawnLogged("approval-gateway", process.execPath, ["--import", "tsx", join("scripts", "serve.ts")], {
      ...env,
      BIND_HOST: host,
    });

if (app.pid) {
  mkdirSync(dirname(appPidFile), { recursive: true });
  // The app's pid, and ours: a live owner means a running instance, not a leftover.
  writeFileSync(appPidFile, `${app.pid} ${process.pid}`);
}

let stopping = false;

// The background job worker (scripts/worker.ts) as a second child, on the same database and env. Over the
// IPC channel it notices when this process dies (even by kill -9) and stops itself. Supervised: when it exits
// (a crash, the database restarting under it) it is started again with a growing pause (scripts/lib/supervise.ts).
let worker: Supervised | null = null;
const startWorker = () =>
  supervise({
    name: "worker",
    log,
    start: () =>
      spawnLogged(
        "worker",
        process.execPath,
        ["--conditions=react-server", "--import", "tsx", join("scripts", "worker.ts")],
        env,
        undefined,
        true,
      ),
  });
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
  // App and worker together (the worker lets running jobs finish), then the sandboxes, all before PostgreSQL.
  await Promise.all([stopChild(app, 10_000), worker?.stop(20_000)]);
  await Promise.all([sandbox?.stop(10_000), ...shops.map((s) => s.stop(10_000))]);
  rmSync(appPidFile, { force: true });
  await database.embedded?.stop().catch((e: unknown) => log.error(`stopping PostgreSQL: ${String(e)}`));
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
    log.error(`the app exited (code ${code ?? "?"})`);
    void shutdown(code ?? 1);
  }
});

// Announce the URL once the app answers its health check.
for (let i = 0; i < 240 && !stopping; i++) {
  try {
    const res = await fetch(`${url}/api/health`);
    if (res.ok) {
      // The demo hint only in the demo: a production start names no demo logins.
      say(demo ? `ready: ${url}  (sign-in credentials: npm run demo:credentials)` : `ready: ${url}`);
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
    refuse(
      `another \`npm start\` (pid ${owner}) is serving port ${port}; stop it, or set PORT (or --port) to run a second instance`,
    );
  }
  rmSync(pidFile, { force: true });
  if (!Number.isInteger(pid) || pid <= 0) return;
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return; // not running
  }
  if (!cmdline.includes("next") && !cmdline.includes("serve.ts")) return; // the pid was reused by something else
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

/**
 * The demo's refund made outside the product (scripts/lib/demo-data.ts demoRefundElsewhere): made at the sandbox
 * through its Stripe API with this run's key, as a shop's dashboard would. One per sandbox database: its
 * idempotency key makes a restart's request a replay. The sandbox then delivers refund.created to the app's
 * webhook (retrying until the app listens), which records it in the ledger with origin external.
 */
async function refundDemoOrderElsewhere(sandboxUrl: string, apiKey: string) {
  const { demoRefundElsewhere: r, paymentIntentRef } = await import("./lib/demo-data");
  const pi = paymentIntentRef(r.tenantSlug, r.orderNumber);
  const res = await fetch(`${sandboxUrl}/v1/refunds`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${apiKey}`,
      "content-type": "application/x-www-form-urlencoded",
      "idempotency-key": `demo-refund-elsewhere:${pi}`,
    },
    body: new URLSearchParams({
      payment_intent: pi,
      amount: String(r.amountMinor),
      "metadata[made_by]": "demo: the shop's own dashboard",
    }).toString(),
  });
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
}

/** The sandbox must know each demo payment (as a payment intent) before it can refund it. */
async function registerDemoPaymentIntents(databaseUrl: string, sandboxUrl: string) {
  const { withPgClient } = await import("../lib/server/db/pg-client");
  const { sandboxControl } = await import("../provider-sandbox/control-client");
  const control = sandboxControl(sandboxUrl, demoPaymentProvider.controlToken);
  await withPgClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ ref: string; amount: number; currency: string; refunded: string }>(
      `SELECT p."providerPaymentRef" AS ref, p."amountMinor" AS amount, p.currency,
              COALESCE((SELECT sum(r."amountMinor") FROM "Refund" r WHERE r."paymentId" = p.id AND r.status = 'succeeded'), 0) AS refunded
         FROM "Payment" p WHERE p.provider = 'stripe'`,
    );
    for (const r of rows) {
      const known = await control.paymentIntent(r.ref).then(
        () => true,
        () => false,
      );
      if (!known)
        await control.createPaymentIntent({
          id: r.ref,
          amount: r.amount,
          currency: r.currency.trim(),
          amountRefunded: Number(r.refunded),
        });
    }
  });
}

/**
 * Saves each demo tenant's action endpoint at its shop's URL (scripts/lib/demo-shop-endpoints.ts, in a child with the
 * app's environment) and answers the secrets the shops verify with, handed over IPC; null when it failed (reported).
 */
async function saveDemoEndpoints(plans: DemoShopPlan[]): Promise<Record<string, string> | null> {
  const child = spawnLogged(
    "demo",
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      join("scripts", "lib", "demo-shop-endpoints-child.ts"),
      JSON.stringify(plans.map((p) => ({ tenant: p.tenant, url: p.url }))),
    ],
    env,
    undefined,
    true,
  );
  let secrets: Record<string, string> | null = null;
  child.on("message", (m: { secrets?: Record<string, string> }) => (secrets = m.secrets ?? null));
  const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  clearTimeout(killer);
  return code === 0 ? secrets : null;
}
