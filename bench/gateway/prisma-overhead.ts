// node --conditions=react-server --import tsx bench/gateway/prisma-overhead.ts
//
// What one statement and one small transaction cost through Prisma (the app's db(): Prisma 7 client engine +
// @prisma/adapter-pg) against pg directly, on one throw-away embedded PostgreSQL: wall time and this process's
// CPU per operation, sequential. The remaining gap of bench:gateway (both sides send the same 8 statements) is
// mostly this per-statement cost. A script, not a test: it prints figures, asserts nothing.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { startEmbeddedPostgres } from "../../scripts/lib/embedded-postgres";
const server = await startEmbeddedPostgres({
  dataDir: mkdtempSync(join(tmpdir(), "perf-micro-")),
  ephemeral: true,
  database: "bench",
});
try {
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
      `${label.padEnd(48)} ${ms.toFixed(3)} ms/op wall, ${((cpu.user + cpu.system) / 1000 / N).toFixed(3)} ms/op CPU (this process)`,
    );
  };
  await time("pg: SELECT $1", () => pool.query("SELECT $1::int AS x", [1]));
  await time("prisma $queryRaw SELECT ${1}", () => db().$queryRaw`SELECT ${1}::int AS x`);
  await time("pg: BEGIN; SELECT; SELECT; COMMIT", async () => {
    const c = await pool.connect();
    try {
      await c.query("BEGIN");
      await c.query("SELECT $1::int", [1]);
      await c.query("SELECT $1::int", [2]);
      await c.query("COMMIT");
    } finally {
      c.release();
    }
  });
  await time("prisma $transaction(2 × $queryRaw)", () =>
    db().$transaction(async (tx) => {
      await tx.$queryRaw`SELECT ${1}::int`;
      await tx.$queryRaw`SELECT ${2}::int`;
    }),
  );
  await pool.end();
  await db().$disconnect();
} finally {
  await server.stop();
}
process.exit(0);
