// npm run bench:queue — first-page latency of the review queue over 100,000 pending proposals.
// Prints the product's use case (listPendingProposals: keyset page + risk flags + JSON shaping)
// beside the raw indexed SQL for the same page, measured in the same run, and their ratio.
// A script, not a test: it asserts nothing about time. Throw-away embedded PostgreSQL, loopback only.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { openPgClient } from "../../lib/server/db/pg-client";
import { startEmbeddedPostgres } from "../../scripts/lib/embedded-postgres";
import { applyMigrations } from "../../scripts/lib/migrations";
import { seedDemo } from "../../scripts/lib/demo-data";
import { prismaFor } from "../../scripts/lib/prisma";
import { createPaidOrders, staffActor } from "../../scripts/lib/fixtures";

const N = Number(process.env.BENCH_PROPOSALS ?? 100_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);

const server = await startEmbeddedPostgres({
  dataDir: mkdtempSync(join(tmpdir(), "bench-queue-")),
  ephemeral: true,
  database: "bench",
});
try {
  await applyMigrations(server.url);
  const prisma = prismaFor(server.url);
  await seedDemo(prisma);
  await prisma.$disconnect();

  const client = await openPgClient(server.url);
  const {
    rows: [t],
  } = await client.query(`SELECT id FROM "Tenant" WHERE slug = 'tienda-es'`);
  const tenantId = t.id as string;
  console.log(`generating ${N.toLocaleString("en")} pending proposals…`);
  const started = performance.now();
  // One order per proposal (the schema allows one pending proposal per order), spread over customers.
  const fixtures = prismaFor(server.url);
  const customers = await fixtures.customer.findMany({
    where: { tenantId },
    select: { id: true },
    orderBy: { id: "asc" },
  });
  await createPaidOrders(
    fixtures,
    { id: tenantId, currency: "EUR" },
    {
      count: N,
      customerIds: customers.map((c) => c.id),
      number: (i) => `B-${i + 1}`,
      amountMinor: (i) => 1000 + ((i + 1) % 90000),
      paymentRef: (number) => `pi_bench_${number}`,
      holderName: "Bench Holder",
    },
  );
  await fixtures.$disconnect();
  await client.query(
    `INSERT INTO "Proposal" (id, "tenantId", "orderId", "customerId", "paymentId", "amountMinor", currency, "recipientKind", "recipientRef",
                             "recipientHolder", "recipientDisplay", reason, status, hash, "expiresAt", "requiredApprovals", "traceId", "updatedAt")
     SELECT gen_random_uuid(), $1, o.id, o."customerId", pay.id, pay."amountMinor", 'EUR', 'card', pay."providerPaymentRef", pay."holderName",
            pay.display, 'damaged_item', 'pending_approval', md5(o.number) || md5(o.number),
            now() + interval '1 minute' + random() * interval '30 minutes', CASE WHEN pay."amountMinor" >= 50000 THEN 2 ELSE 1 END, md5(o.id::text), now()
       FROM "Order" o JOIN "Payment" pay ON pay."orderId" = o.id
      WHERE o."tenantId" = $1 AND o.number LIKE 'B-%'`,
    [tenantId],
  );
  await client.query("ANALYZE");
  console.log(`generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // The product path: the same module the route handler calls.
  process.env.DATABASE_URL = server.url;
  process.env.APP_MODE = "demo";
  const { listPendingProposals } = await import("../../lib/server/proposals/list-pending-proposals");
  const staff = prismaFor(server.url);
  const actor = await staffActor(staff, "lucia.revisora@tienda-es.test");
  await staff.$disconnect();
  const rawSql = `SELECT p.id, p."amountMinor", p."expiresAt" FROM "Proposal" p
                   WHERE p."tenantId" = $1 AND p.status = 'pending_approval' AND p."expiresAt" > now()
                   ORDER BY p."expiresAt", p.id LIMIT 26`;

  async function measure(label: string, fn: () => Promise<unknown>) {
    for (let i = 0; i < 20; i++) await fn(); // warm-up
    const times: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      const t0 = performance.now();
      await fn();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
    return { label, p50: q(0.5), p95: q(0.95), p99: q(0.99) };
  }

  const raw = await measure("raw indexed SQL (pg, same page, no flags)", () => client.query(rawSql, [tenantId]));
  const product = await measure("listPendingProposals (keyset + flags + shaping)", () =>
    listPendingProposals(actor, {}),
  );
  const page = await listPendingProposals(actor, {});
  const deep = await measure("listPendingProposals, second page (cursor)", () =>
    listPendingProposals(actor, { cursor: page.nextCursor ?? undefined }),
  );
  const plan = await client.query(`EXPLAIN ${rawSql}`, [tenantId]);
  // Debugging aid: BENCH_EXPLAIN_FILE=some.sql prints the plan of any query against this data.
  if (process.env.BENCH_EXPLAIN_FILE) {
    const { readFileSync } = await import("node:fs");
    const explained = await client.query(readFileSync(process.env.BENCH_EXPLAIN_FILE, "utf8"));
    console.log(explained.rows.map((r) => r["QUERY PLAN"]).join("\n"));
  }

  console.log(`\nqueue first page over ${N.toLocaleString("en")} pending proposals, ${ITERATIONS} iterations each`);
  for (const r of [raw, product, deep])
    console.log(
      `${r.label.padEnd(52)} p50 ${r.p50.toFixed(2)} ms   p95 ${r.p95.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms`,
    );
  console.log(
    `ratio product/raw: p50 ${(product.p50 / raw.p50).toFixed(1)}×   p95 ${(product.p95 / raw.p95).toFixed(1)}×`,
  );
  console.log(
    `raw plan: ${plan.rows
      .map((r) => r["QUERY PLAN"])
      .join(" | ")
      .slice(0, 240)}`,
  );
  await client.end();
  const g = globalThis as unknown as { prisma?: { $disconnect(): Promise<void> } };
  await g.prisma?.$disconnect();
} finally {
  await server.stop();
}
process.exit(0);
