// npm run provider:sandbox: the sandbox payment provider as its own process (provider-sandbox/,
// docs/provider-sandbox.md). Flags win over environment variables; without any, it runs with the
// demo's public credentials on 127.0.0.1:12111.
//
//   --database-url / PROVIDER_SANDBOX_DATABASE_URL   its own database (created when missing). Else the
//                    database `provider_sandbox` on DATABASE_URL's server, else an embedded PostgreSQL
//                    kept in .data/provider-sandbox-pg (PROVIDER_SANDBOX_PG_DIR).
//   --port / PROVIDER_SANDBOX_PORT (12111; 0 = any free port)      --host / PROVIDER_SANDBOX_HOST (127.0.0.1)
//   --api-key (repeatable) / PROVIDER_SANDBOX_API_KEYS (comma-separated): the default account's keys; other
//                    accounts (one per tenant, own key and webhook) are registered at /__control/accounts
//   --control-token / PROVIDER_SANDBOX_CONTROL_TOKEN
//   --webhook-url / PROVIDER_SANDBOX_WEBHOOK_URL   --webhook-secret / PROVIDER_SANDBOX_WEBHOOK_SECRET
//   --webhook-max-attempts (8)   --webhook-base-delay-ms (500)
// Prints "listening on <url>" when ready. Stops cleanly on SIGINT / SIGTERM (and when a parent that
// spawned it with an IPC channel goes away).
import { join } from "node:path";
import { parseArgs } from "node:util";
import { demoPaymentProvider } from "../lib/config/demo-payment-provider";
import { startSandboxProvider } from "../provider-sandbox/server";
import { startEmbeddedPostgres, type EmbeddedServer } from "./lib/embedded-postgres";

const { values } = parseArgs({
  options: {
    "database-url": { type: "string" },
    port: { type: "string" },
    host: { type: "string" },
    "api-key": { type: "string", multiple: true },
    "control-token": { type: "string" },
    "webhook-url": { type: "string" },
    "webhook-secret": { type: "string" },
    "webhook-max-attempts": { type: "string" },
    "webhook-base-delay-ms": { type: "string" },
  },
  strict: true,
});
const env = process.env;
const say = (line: string) => console.log(`[provider-sandbox] ${line}`);
const fail = (error: unknown) => {
  console.error(`[provider-sandbox] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
};
const int = (raw: string | undefined, name: string): number | undefined => {
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) fail(`${name} must be a non-negative integer`);
  return n;
};

let embedded: EmbeddedServer | null = null;
let databaseUrl = values["database-url"] ?? env.PROVIDER_SANDBOX_DATABASE_URL ?? "";
if (!databaseUrl && env.DATABASE_URL) {
  const url = new URL(env.DATABASE_URL);
  url.pathname = `/${demoPaymentProvider.database}`;
  url.search = "";
  databaseUrl = url.toString();
}
if (!databaseUrl) {
  const dataDir = env.PROVIDER_SANDBOX_PG_DIR ?? join(process.cwd(), ".data", "provider-sandbox-pg");
  say(`starting its own embedded PostgreSQL (${dataDir})`);
  embedded = await startEmbeddedPostgres({ dataDir, database: demoPaymentProvider.database }).catch(fail);
  databaseUrl = embedded.url;
}

const apiKeys =
  values["api-key"] ??
  (env.PROVIDER_SANDBOX_API_KEYS
    ? env.PROVIDER_SANDBOX_API_KEYS.split(",").map((k) => k.trim())
    : [demoPaymentProvider.apiKey]);
const controlToken = values["control-token"] ?? env.PROVIDER_SANDBOX_CONTROL_TOKEN ?? demoPaymentProvider.controlToken;
const webhookUrl = values["webhook-url"] ?? env.PROVIDER_SANDBOX_WEBHOOK_URL ?? undefined;
const webhookSecret =
  values["webhook-secret"] ??
  env.PROVIDER_SANDBOX_WEBHOOK_SECRET ??
  (webhookUrl ? demoPaymentProvider.webhookSecret : undefined);

const sandbox = await startSandboxProvider({
  databaseUrl,
  port: int(values.port ?? env.PROVIDER_SANDBOX_PORT, "--port") ?? demoPaymentProvider.port,
  host: values.host ?? env.PROVIDER_SANDBOX_HOST ?? "127.0.0.1",
  apiKey: apiKeys,
  controlToken,
  webhookUrl: webhookUrl || undefined,
  webhookSecret,
  webhookMaxAttempts: int(values["webhook-max-attempts"], "--webhook-max-attempts"),
  webhookBaseDelayMs: int(values["webhook-base-delay-ms"], "--webhook-base-delay-ms"),
  log: say,
}).catch(async (error: unknown) => {
  await embedded?.stop();
  return fail(error);
});

const database = new URL(databaseUrl).pathname.slice(1);
say(
  `listening on ${sandbox.url} (database ${database}${webhookUrl ? `, webhooks to ${webhookUrl}` : ", no webhooks"})`,
);

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  say(`${signal}: stopping`);
  try {
    await sandbox.close();
    await embedded?.stop();
  } catch (error) {
    fail(error);
  }
  process.exit(0);
};
// embedded-postgres (imported above) installs signal hooks that exit at once with 128 + signal; ours
// close the server, the pool and then any embedded PostgreSQL, so they replace them.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.removeAllListeners(signal);
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));
if (process.send) process.on("disconnect", () => void stop("parent gone"));
