// npm run shop:sandbox: the sandbox shop — a tenant's action endpoint — as its own process (shop-sandbox/,
// docs/shop-sandbox.md). Flags win over environment variables; without any, it runs with the public demo values
// below on 127.0.0.1:12112.
//
//   --database-url / SHOP_SANDBOX_DATABASE_URL   its own database (created when missing). Else the database
//                    `shop_sandbox` on DATABASE_URL's server, else an embedded PostgreSQL kept in
//                    .data/shop-sandbox-pg (SHOP_SANDBOX_PG_DIR).
//   --port / SHOP_SANDBOX_PORT (12112; 0 = any free port)      --host / SHOP_SANDBOX_HOST (127.0.0.1)
//   --signing-secret / SHOP_SANDBOX_SIGNING_SECRET   the action endpoint's Standard Webhooks secret (whsec_…)
//   --control-token / SHOP_SANDBOX_CONTROL_TOKEN
// Prints "listening on <url>" when ready. Stops cleanly on SIGINT / SIGTERM (and when a parent that spawned it
// with an IPC channel goes away).
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startShopSandbox } from "../shop-sandbox/server";
import { startEmbeddedPostgres, type EmbeddedServer } from "./lib/embedded-postgres";

/** Public, demo-only values (like lib/config/demo-payment-provider.ts for the payment sandbox): never production's. */
const demoShop = {
  port: 12112,
  database: "shop_sandbox",
  signingSecret: "whsec_c2hvcC1zYW5kYm94IGRlbW8gc2lnbmluZyBzZWNyZXQsIHB1YmxpYzogbmV2ZXIgdXNlIGl0IGluIHByb2R1Y3Rpb24=",
  controlToken: "demo-shop-sandbox-control-token",
} as const;

const { values } = parseArgs({
  options: {
    "database-url": { type: "string" },
    port: { type: "string" },
    host: { type: "string" },
    "signing-secret": { type: "string" },
    "control-token": { type: "string" },
  },
  strict: true,
});
const env = process.env;
const say = (line: string) => console.log(`[shop-sandbox] ${line}`);
const fail = (error: unknown) => {
  console.error(`[shop-sandbox] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
};
const int = (raw: string | undefined, name: string): number | undefined => {
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) fail(`${name} must be a non-negative integer`);
  return n;
};

let embedded: EmbeddedServer | null = null;
let databaseUrl = values["database-url"] ?? env.SHOP_SANDBOX_DATABASE_URL ?? "";
if (!databaseUrl && env.DATABASE_URL) {
  const url = new URL(env.DATABASE_URL);
  url.pathname = `/${demoShop.database}`;
  url.search = "";
  databaseUrl = url.toString();
}
if (!databaseUrl) {
  const dataDir = env.SHOP_SANDBOX_PG_DIR ?? join(process.cwd(), ".data", "shop-sandbox-pg");
  say(`starting its own embedded PostgreSQL (${dataDir})`);
  embedded = await startEmbeddedPostgres({ dataDir, database: demoShop.database }).catch(fail);
  databaseUrl = embedded.url;
}

const shop = await startShopSandbox({
  databaseUrl,
  port: int(values.port ?? env.SHOP_SANDBOX_PORT, "--port") ?? demoShop.port,
  host: values.host ?? env.SHOP_SANDBOX_HOST ?? "127.0.0.1",
  signingSecret: values["signing-secret"] ?? env.SHOP_SANDBOX_SIGNING_SECRET ?? demoShop.signingSecret,
  controlToken: values["control-token"] ?? env.SHOP_SANDBOX_CONTROL_TOKEN ?? demoShop.controlToken,
  log: say,
}).catch(async (error: unknown) => {
  await embedded?.stop();
  return fail(error);
});

say(
  `listening on ${shop.url} (action endpoint ${shop.url}/actions, database ${new URL(databaseUrl).pathname.slice(1)})`,
);

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  say(`${signal}: stopping`);
  try {
    await shop.close();
    await embedded?.stop();
  } catch (error) {
    fail(error);
  }
  process.exit(0);
};
// embedded-postgres (imported above) installs signal hooks that exit at once with 128 + signal; ours close the
// server, the pool and then any embedded PostgreSQL, so they replace them.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.removeAllListeners(signal);
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));
if (process.send) process.on("disconnect", () => void stop("parent gone"));
