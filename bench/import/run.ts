// npm run bench:import [-- --lines N] [--parallel N] [--phases] — orders:import throughput (rows/s) over N (or
// BENCH_IMPORT_LINES, default 100,000) NDJSON lines, one order with one payment each, beside a raw COPY of the same
// rows (Customer, Order, Payment via psql \copy) into the same database in the same run, the ratio, and the
// process's peak RSS. The import pays for what COPY skips: the schema per line, the locks, the consistency reads
// and one audit event per batch of 1,000 lines (lib/server/orders/upsert-order-batch.ts), on --parallel
// connections (default min(2, cores)). --phases prints where its time goes. Target: ≥ 0.5× COPY. A script, not a
// test. Throw-away embedded PostgreSQL, loopback only; needs psql.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { closeSync, mkdtempSync, openSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { withPgClient } from "../../lib/server/db/pg-client";
import { startEmbeddedPostgres } from "../../scripts/lib/embedded-postgres";
import { applyMigrations } from "../../scripts/lib/migrations";
import { seedDemo } from "../../scripts/lib/demo-data";
import { prismaFor } from "../../scripts/lib/prisma";

const { values } = parseArgs({
  options: { lines: { type: "string" }, parallel: { type: "string" }, phases: { type: "boolean", default: false } },
});
const N = Number(values.lines ?? process.env.BENCH_IMPORT_LINES ?? 100_000);
if (!Number.isInteger(N) || N < 1) throw new Error("--lines takes a whole number");
const parallel = values.parallel === undefined ? undefined : Number(values.parallel);
if (parallel !== undefined && !(Number.isInteger(parallel) && parallel >= 1)) throw new Error("--parallel N");

/** Lines written to a file in chunks: a million of them are never one string in memory. */
function writeLines(path: string, count: number, lineAt: (i: number) => string) {
  const fd = openSync(path, "w");
  try {
    for (let i = 0; i < count; i += 10_000) {
      const chunk: string[] = [];
      for (let j = i; j < Math.min(count, i + 10_000); j++) chunk.push(lineAt(j));
      writeSync(fd, chunk.join("\n") + "\n");
    }
  } finally {
    closeSync(fd);
  }
}
const dir = mkdtempSync(join(tmpdir(), "bench-import-"));
const server = await startEmbeddedPostgres({
  dataDir: mkdtempSync(join(tmpdir(), "bench-import-pg-")),
  ephemeral: true,
  database: "bench",
});
try {
  await applyMigrations(server.url);
  const prisma = prismaFor(server.url);
  await seedDemo(prisma);
  await prisma.$disconnect();

  const row = (i: number) => ({
    number: `BI-${i}`,
    customer: { id: `cus_bench_${i}`, email: `c${i}@example.com`, name: `Customer ${i}` },
    currency: "EUR",
    total_minor: 1000 + (i % 90_000),
    status: "paid",
    placed_at: "2026-11-30T10:00:00Z",
    payments: [
      {
        provider: "manual",
        reference: `pay_bench_${i}`,
        method: "card",
        captured_minor: 1000 + (i % 90_000),
        holder: `Customer ${i}`,
        display: "Visa •• 4242",
      },
    ],
  });
  const file = join(dir, "orders.ndjson");
  writeLines(file, N, (i) => JSON.stringify(row(i)));

  process.env.DATABASE_URL = server.url;
  process.env.APP_MODE = "demo";
  const { importOrders, DEFAULT_PARALLEL } = await import("../../lib/server/orders/import-orders");
  const phases: Record<string, number> = {};
  const { db } = await import("../../lib/server/db/client");
  console.log(`importing ${N.toLocaleString("en")} lines…`);
  const cpu0 = process.cpuUsage();
  let t0 = performance.now();
  const summary = await importOrders({
    tenantSlug: "tienda-es",
    file,
    onProgress: (p) => console.error(`  ${p.read.toLocaleString("en")} lines`),
    progressEveryMs: 10_000,
    ...(parallel === undefined ? {} : { parallel }),
    ...(values.phases ? { phases } : {}),
  });
  const importSeconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const importCpuSeconds = (cpu.user + cpu.system) / 1e6;
  await db().$disconnect();
  if (summary.created !== N)
    throw new Error(`expected ${N} created, got ${JSON.stringify({ ...summary, refused: summary.refused.length })}`);

  // The same rows for the other tenant (same currency so the rows are byte-for-byte alike but for ids).
  const { rows } = await withPgClient(server.url, (client) =>
    client.query(`SELECT id FROM "Tenant" WHERE slug = 'shop-us'`),
  );
  const tenant = rows[0].id as string;
  const tsv = (cells: (string | number)[]) => cells.join("\t");
  const orderIds = Array.from({ length: N }, () => randomUUID());
  writeLines(join(dir, "customers.tsv"), N, (i) => {
    const r = row(i);
    return tsv([`cus_copy_${i}`, tenant, r.customer.name, r.customer.email]);
  });
  writeLines(join(dir, "orders.tsv"), N, (i) => {
    const r = row(i);
    const at = r.placed_at;
    return tsv([
      orderIds[i]!,
      tenant,
      r.number,
      `cus_copy_${i}`,
      r.currency,
      r.total_minor,
      r.total_minor,
      "paid",
      "[]",
      at,
      at,
    ]);
  });
  writeLines(join(dir, "payments.tsv"), N, (i) => {
    const r = row(i);
    const p = r.payments[0]!;
    return tsv([
      randomUUID(),
      tenant,
      orderIds[i]!,
      "card",
      p.reference,
      p.holder,
      p.display,
      r.total_minor,
      r.currency,
      "manual",
    ]);
  });
  t0 = performance.now();
  const copy = spawnSync(
    "psql",
    [
      server.url,
      "-v",
      "ON_ERROR_STOP=1",
      "-q",
      "-c",
      `\\copy "Customer" (id, "tenantId", name, email) FROM '${join(dir, "customers.tsv")}'`,
      "-c",
      `\\copy "Order" (id, "tenantId", number, "customerId", currency, "totalMinor", "capturedMinor", status, items, "placedAt", "updatedAt") FROM '${join(dir, "orders.tsv")}'`,
      "-c",
      `\\copy "Payment" (id, "tenantId", "orderId", method, "providerPaymentRef", "holderName", display, "amountMinor", currency, provider) FROM '${join(dir, "payments.tsv")}'`,
    ],
    { encoding: "utf8" },
  );
  const copySeconds = (performance.now() - t0) / 1000;
  if (copy.status !== 0) throw new Error(`psql \\copy failed: ${copy.stderr}`);

  const fmt = (n: number) => Math.round(n).toLocaleString("en");
  const importRate = N / importSeconds;
  const copyRate = N / copySeconds;
  console.log(
    `orders:import  ${fmt(importRate)} rows/s  (${importSeconds.toFixed(1)} s; batches of 1,000 on ${parallel ?? DEFAULT_PARALLEL} connection(s): COPY, set-based upserts, one audit event each)`,
  );
  if (values.phases) {
    // read = this process reading and checking lines; wait = the reader held (all connections busy); the others
    // are upsertOrderBatch's phases summed over the connections (so they may add up to more than the wall time).
    const list = Object.entries(phases).map(([k, ms]) => `${k} ${(ms / 1000).toFixed(2)} s`);
    console.log(`  phases       ${list.join(", ")}`);
  }
  console.log(
    `               of which this process's own CPU: ${importCpuSeconds.toFixed(1)} s (parsing, the schema, COPY text)`,
  );
  console.log(`raw COPY       ${fmt(copyRate)} rows/s  (${copySeconds.toFixed(2)} s, 3 tables, no checks, no audit)`);
  console.log(`ratio          import = ${(importRate / copyRate).toFixed(2)}× COPY (target ≥ 0.5×)`);
  // maxRSS is in kilobytes (the import and the bench's own files and arrays, in this one process).
  console.log(`peak RSS       ${fmt(process.resourceUsage().maxRSS / 1024)} MiB`);
} finally {
  await server.stop();
}
