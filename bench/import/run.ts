// npm run bench:import — orders:import throughput (lines/s) over BENCH_IMPORT_LINES (default 100,000) NDJSON
// lines, one order with one payment each, beside a raw COPY of the same rows (Customer, Order, Payment via psql
// \copy) into the same database in the same run. The import pays for what COPY skips: the schema, the advisory
// lock, the consistency reads, the before/after snapshot, the refundable-left read and an audit event, in one
// transaction per line. A script, not a test. Throw-away embedded PostgreSQL, loopback only; needs psql.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { withPgClient } from "../../lib/server/db/pg-client";
import { startEmbeddedPostgres } from "../../scripts/lib/embedded-postgres";
import { applyMigrations } from "../../scripts/lib/migrations";
import { seedDemo } from "../../scripts/lib/demo-data";
import { prismaFor } from "../../scripts/lib/prisma";

const N = Number(process.env.BENCH_IMPORT_LINES ?? 100_000);
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
  writeFileSync(file, Array.from({ length: N }, (_, i) => JSON.stringify(row(i))).join("\n") + "\n");

  process.env.DATABASE_URL = server.url;
  process.env.APP_MODE = "demo";
  const { importOrders } = await import("../../lib/server/orders/import-orders");
  const { db } = await import("../../lib/server/db/client");
  console.log(`importing ${N.toLocaleString("en")} lines…`);
  let t0 = performance.now();
  const summary = await importOrders({
    tenantSlug: "tienda-es",
    file,
    onProgress: (p) => console.error(`  ${p.read} lines`),
    progressEveryMs: 10_000,
  });
  const importSeconds = (performance.now() - t0) / 1000;
  await db().$disconnect();
  if (summary.created !== N)
    throw new Error(`expected ${N} created, got ${JSON.stringify({ ...summary, refused: summary.refused.length })}`);

  // The same rows for the other tenant (same currency so the rows are byte-for-byte alike but for ids).
  const { rows } = await withPgClient(server.url, (client) =>
    client.query(`SELECT id FROM "Tenant" WHERE slug = 'shop-us'`),
  );
  const tenant = rows[0].id as string;
  const tsv = (cells: (string | number)[]) => cells.join("\t");
  const customers: string[] = [];
  const orders: string[] = [];
  const payments: string[] = [];
  for (let i = 0; i < N; i++) {
    const r = row(i);
    const orderId = randomUUID();
    customers.push(tsv([`cus_copy_${i}`, tenant, r.customer.name, r.customer.email]));
    orders.push(
      tsv([
        orderId,
        tenant,
        r.number,
        `cus_copy_${i}`,
        r.currency,
        r.total_minor,
        r.total_minor,
        "paid",
        "[]",
        r.placed_at,
        r.placed_at,
      ]),
    );
    payments.push(
      tsv([
        randomUUID(),
        tenant,
        orderId,
        "card",
        r.payments[0]!.reference,
        r.payments[0]!.holder,
        r.payments[0]!.display,
        r.total_minor,
        r.currency,
        "manual",
      ]),
    );
  }
  const files = { customers, orders, payments };
  for (const [name, lines] of Object.entries(files)) writeFileSync(join(dir, `${name}.tsv`), lines.join("\n") + "\n");
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
  console.log(
    `orders:import  ${fmt(N / importSeconds)} lines/s  (${importSeconds.toFixed(1)} s, one transaction + audit event per line)`,
  );
  console.log(
    `raw COPY       ${fmt(N / copySeconds)} rows/s   (${copySeconds.toFixed(2)} s, 3 tables, no checks, no audit)`,
  );
  console.log(`ratio          COPY is ${(importSeconds / copySeconds).toFixed(0)}× faster`);
} finally {
  await server.stop();
}
