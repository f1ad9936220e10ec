// node --conditions=react-server --import tsx bench/gateway/prisma-overhead.ts
//
// What one statement and one small transaction cost through Prisma (the app's db(): Prisma 7 client engine +
// @prisma/adapter-pg) against pg directly, on one throw-away embedded PostgreSQL: wall time and this process's
// CPU per operation, sequential: one read by id, a transaction of two, and a staff use case's transaction before
// and after the one transaction manager. The remaining gap of bench:gateway is mostly this per-statement cost. A script, not a test: it prints figures, asserts nothing.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { startEmbeddedPostgres } from "../../scripts/lib/embedded-postgres";
import { applyMigrations } from "../../scripts/lib/migrations";
const server = await startEmbeddedPostgres({
  dataDir: mkdtempSync(join(tmpdir(), "perf-micro-")),
  ephemeral: true,
  database: "bench",
});
try {
  await applyMigrations(server.url);
  process.env.DATABASE_URL = server.url;
  process.env.APP_MODE = "demo";
  const { db } = await import("../../lib/server/db/client");
  const pool = new pg.Pool({ connectionString: server.url, max: 2 });
  const N = 1500;
  const time = async (label: string, fn: () => Promise<unknown>) => {
    for (let i = 0; i < 200; i++) await fn();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) await fn();
    const ms = (performance.now() - t0) / N;
    const cpu = process.cpuUsage(cpu0);
    console.log(
      `${label.padEnd(56)} ${ms.toFixed(3)} ms/op wall, ${((cpu.user + cpu.system) / 1000 / N).toFixed(3)} ms/op CPU (this process)`,
    );
  };
  const tenant = await db().tenant.create({
    data: { slug: `bench-${Date.now()}`, name: "Bench", currency: "EUR", locale: "es-ES", timeZone: "Europe/Madrid" },
  });
  const byId = `SELECT "id", "name" FROM "Tenant" WHERE "id" = $1::uuid`;
  await time("pg: one SELECT by id", () => pool.query(byId, [tenant.id]));
  await time("prisma: one model read by id", () =>
    db().tenant.findUnique({ where: { id: tenant.id }, select: { id: true, name: true } }),
  );
  await time("pg: BEGIN; SELECT; SELECT; COMMIT", async () => {
    const c = await pool.connect();
    try {
      await c.query("BEGIN");
      await c.query(byId, [tenant.id]);
      await c.query(byId, [tenant.id]);
      await c.query("COMMIT");
    } finally {
      c.release();
    }
  });
  await time("prisma $transaction(2 model reads)", () =>
    db().$transaction(async (tx) => {
      await tx.tenant.findUnique({ where: { id: tenant.id }, select: { id: true, name: true } });
      await tx.tenant.findUnique({ where: { id: tenant.id }, select: { id: true, name: true } });
    }),
  );
  // A staff use case's transaction: two model reads and one statement of the typed SQL layer. Before the one
  // manager (lib/server/db/transaction.ts), a Prisma interactive transaction in which that statement, too, went
  // through Prisma's request pipeline (the old sqlOf sent it as a raw query; a third model read stands for it
  // here); now a pg transaction with Prisma's model API as a savepoint of it and the statement on pg.
  const { transaction } = await import("../../lib/server/db/transaction");
  const { sqlOf } = await import("../../lib/server/db/sql");
  // Alternating slices, so that a change in the machine's load falls on both.
  for (let slice = 1; slice <= 3; slice++) {
    await time(`before: $transaction(3 statements through Prisma) #${slice}`, () =>
      db().$transaction(async (tx) => {
        await tx.tenant.findUnique({ where: { id: tenant.id } });
        await tx.staffUser.findMany({ where: { tenantId: tenant.id }, take: 5 });
        await tx.tenant.findUnique({ where: { id: tenant.id }, select: { id: true } });
      }),
    );
    await time(`now: transaction(2 model reads, 1 layer on pg) #${slice}`, () =>
      transaction(async (tx) => {
        await tx.tenant.findUnique({ where: { id: tenant.id } });
        await tx.staffUser.findMany({ where: { tenantId: tenant.id }, take: 5 });
        await sqlOf(tx).selectFrom("Tenant").select("id").where("id", "=", tenant.id).execute();
      }),
    );
  }
  await pool.end();
  await db().$disconnect();
} finally {
  await server.stop();
}
process.exit(0);
