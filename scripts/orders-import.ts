// npm run orders:import -- --tenant SLUG [--resume] [--batch N] [--parallel N] FILE: orders from the shop's system of record, one
// per line (NDJSON, or CSV with the header in docs/systems-of-record.md), through the Orders API's schema, written
// in batches of N lines (default 1,000) through the bulk Orders API's path (one transaction and audit event each).
// On DATABASE_URL, or the embedded demo database when it is unset (started, migrated and seeded like
// `npm run db:seed`). Prints one JSON outcome per line to stdout (after its batch commits); on stderr a progress
// bar with rate and time left on a terminal, a plain progress line every 2 s otherwise.
// Exit 0: every line imported; 1: some lines refused (the others are imported); 2: nothing could be done.
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import nextEnv from "@next/env";
import { prepareDatabase } from "./lib/database";

nextEnv.loadEnvConfig(process.cwd(), false, { info: () => undefined, error: console.error });

const usage =
  "usage: npm run orders:import -- --tenant SLUG [--resume] [--batch N] [--parallel N] FILE (.ndjson or .csv)";
let args;
try {
  args = parseArgs({
    options: {
      tenant: { type: "string" },
      resume: { type: "boolean", default: false },
      batch: { type: "string" },
      parallel: { type: "string" },
    },
    allowPositionals: true,
  });
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
  process.exit(2);
}
const file = args.positionals[0];
if (!args.values.tenant || !file || args.positionals.length !== 1) {
  console.error(usage);
  process.exit(2);
}
const batchLines = args.values.batch === undefined ? undefined : Number(args.values.batch);
if (batchLines !== undefined && !(Number.isInteger(batchLines) && batchLines >= 1 && batchLines <= 2_000)) {
  console.error(
    `--batch takes a whole number of lines from 1 to 2000 (each batch holds one advisory lock per order number)\n${usage}`,
  );
  process.exit(2);
}
const parallel = args.values.parallel === undefined ? undefined : Number(args.values.parallel);
if (parallel !== undefined && !(Number.isInteger(parallel) && parallel >= 1 && parallel <= 8)) {
  console.error(`--parallel takes a whole number of connections from 1 to 8\n${usage}`);
  process.exit(2);
}
if (!existsSync(file)) {
  console.error(`[orders:import] no such file: ${file}`);
  process.exit(2);
}

// An external DATABASE_URL is used as it is (migrated by the deployment, `npm run db:migrate`); only the
// embedded demo database is started, migrated and seeded here.
const database = process.env.DATABASE_URL
  ? null
  : await prepareDatabase({ demo: true, log: (m) => console.error(`[orders:import] ${m}`) });
if (database) {
  process.env.DATABASE_URL = database.url;
  process.env.APP_MODE ??= "demo";
}
const { importOrders, ImportRefused } = await import("../lib/server/orders/import-orders");
const { db } = await import("../lib/server/db/client");
const { progressLine } = await import("../lib/server/orders/import-progress");
const tty = process.stderr.isTTY === true;
const started = Date.now();
let code = 2;
try {
  const summary = await importOrders({
    tenantSlug: args.values.tenant,
    file,
    resume: args.values.resume,
    ...(batchLines === undefined ? {} : { batchLines }),
    ...(parallel === undefined ? {} : { parallel }),
    onLine: (o) => process.stdout.write(JSON.stringify(o) + "\n"),
    progressEveryMs: tty ? 250 : 2000,
    onProgress: (p) => {
      const line = progressLine({ ...p, refused: p.refused.length, elapsedMs: Date.now() - started, bar: tty });
      if (tty) process.stderr.write(`\r[orders:import] ${line}\x1b[K`);
      else console.error(`[orders:import] ${line}`);
    },
  });
  if (tty) process.stderr.write("\n");
  const { refused, ...counts } = summary;
  console.error(`[orders:import] done: ${JSON.stringify({ ...counts, refused: refused.length })}`);
  if (refused.length > 0) console.error(`[orders:import] refused lines: ${refused.join(", ")}`);
  code = refused.length > 0 ? 1 : 0;
} catch (error) {
  if (error instanceof ImportRefused) console.error(`[orders:import] ${error.message}`);
  else
    console.error(
      `[orders:import] stopped: ${error instanceof Error ? error.message : String(error)} (run again with --resume)`,
    );
} finally {
  await db().$disconnect();
  await database?.embedded?.stop();
}
process.exit(code);
