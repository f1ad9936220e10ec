// npm run bench:audit [-- --no-load] — traceId search latency over generated audit events (10 million; choose
// fewer with BENCH_EVENTS on a small machine). Prints, measured in the same run and interleaved round by round:
// the raw indexed SQL lookup (plain, and as a prepared statement), the product's query (findAuditEvents: the page
// with leaf indexes and actor names, one statement) and the whole audited use case (searchAuditEvents: the search
// is itself an audit event, committed before the results are returned).
// Then the same again while the gateway bench's load runs beside it (bench/gateway/load.ts in a child
// process: the product's route handler preparing refunds on the same database, 8 connections; skip with
// --no-load). A script, not a test: it asserts nothing about time. Throw-away embedded PostgreSQL, loopback only.
// Rows are generated with one INSERT … SELECT generate_series into the monthly-partitioned AuditEvent
// (2026-01…, spread over several partitions) plus their leaves: a latency bench needs realistic shape and
// indexes, not valid hashes (the log is not verified here).
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createHash } from "node:crypto";
import { openPgClient } from "../../lib/server/db/pg-client";
import { startEmbeddedPostgres } from "../../scripts/lib/embedded-postgres";
import { applyMigrations } from "../../scripts/lib/migrations";
import { seedDemo } from "../../scripts/lib/demo-data";
import { prismaFor } from "../../scripts/lib/prisma";
import { staffActor } from "../../scripts/lib/fixtures";

const N = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 1000);
const PER_TRACE = 8;
const WITH_LOAD = !process.argv.includes("--no-load");

let loadProc: ChildProcess | null = null;
const server = await startEmbeddedPostgres({
  dataDir: mkdtempSync(join(tmpdir(), "bench-audit-")),
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
  const {
    rows: [us],
  } = await client.query(`SELECT id FROM "Tenant" WHERE slug = 'shop-us'`);
  const tenantId = t.id as string;
  console.log(`generating ${N.toLocaleString("en")} audit events (${PER_TRACE} per trace, two tenants)…`);
  const started = performance.now();
  // Odd g → tienda-es, even g → shop-us; write position pos = g. Events of one trace are consecutive.
  await client.query(`SELECT "audit_event_ensure_partitions"('2026-01-01'::date, 3)`);
  await client.query(
    `INSERT INTO "AuditEvent" (id, "tenantId", pos, "occurredAt", "traceId", "actorType", "actorId", "authMethod", action, outcome,
                               "proposalId", "proposalHash", channel, "endUser", data, fingerprints, hash)
     SELECT gen_random_uuid(), CASE WHEN g % 2 = 1 THEN $1::uuid ELSE $2::uuid END, g,
            timestamp '2026-01-01' + g * interval '1 second', 'bench-' || md5((g / ${PER_TRACE})::text),
            'agent', 'key-' || (g % 7), 'agent_key', (ARRAY['tool:lookup_order','tool:prepare_refund','proposal:approve','execution:send'])[1 + g % 4],
            (ARRAY['ok','approval_required','ok','invalid_arguments'])[1 + g % 4], NULL, NULL, 'web_support',
            'fp:' || substr(md5((g % 50000)::text), 1, 16), '{"bench":true}'::jsonb,
            ARRAY['fp:' || substr(md5((g % 50000)::text), 1, 16)], md5(g::text) || md5(g::text)
       FROM generate_series(1, $3::int) g`,
    [tenantId, us.id, N],
  );
  await client.query(`SELECT setval('"AuditEvent_pos_seq"', $1::bigint)`, [N + 1]);
  // Every event integrated (the search joins its leaf index).
  await client.query(
    `INSERT INTO "AuditLeaf" ("logId", "leafIndex", "eventId", "leafHash", "occurredAt")
     SELECT "tenantId", (row_number() OVER (PARTITION BY "tenantId" ORDER BY pos) - 1)::int, id, hash, "occurredAt" FROM "AuditEvent"`,
  );
  // A live log is vacuumed by autovacuum as it grows. Freshly bulk-loaded, the partitions would get their
  // insert-triggered autovacuum in the middle of the measurement instead: vacuum them now, as a live log is.
  await client.query("VACUUM (ANALYZE)");
  console.log(`generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  process.env.DATABASE_URL = server.url;
  process.env.APP_MODE = "demo";
  const { findAuditEvents, searchAuditEvents, parseAuditSearch } =
    await import("../../lib/server/audit/search-audit-events");
  const { db } = await import("../../lib/server/db/client");
  const { sqlPool } = await import("../../lib/server/db/pg");
  const actor = await staffActor(db(), "auditoria@tienda-es.test");
  const traces = Math.max(1, Math.floor(N / PER_TRACE));
  const randomTrace = () => {
    // a trace that has tienda-es events (every trace holds both parities)
    const n = Math.floor(Math.random() * traces);
    return `bench-${createHashMd5(String(n))}`;
  };
  const rawSql = `SELECT id, pos FROM "AuditEvent" WHERE "tenantId" = $1 AND "traceId" = $2 ORDER BY pos DESC LIMIT 51`;

  type Measured = { label: string; p50: number; p95: number; p99: number };
  /**
   * The three lookups measured interleaved: every round runs each once (in a rotating order) on a fresh random
   * trace, so whatever else the machine does at a moment (other sessions, checkpoints, the gateway load) falls
   * on all three alike rather than on whichever series happened to run then.
   */
  async function measureInterleaved(
    series: { label: string; fn: (trace: string) => Promise<unknown> }[],
  ): Promise<Measured[]> {
    for (let i = 0; i < 20; i++) for (const s of series) await s.fn(randomTrace()); // warm-up
    const times = series.map(() => [] as number[]);
    for (let i = 0; i < ITERATIONS; i++) {
      for (let k = 0; k < series.length; k++) {
        const j = (i + k) % series.length;
        const trace = randomTrace();
        const t0 = performance.now();
        await series[j]!.fn(trace);
        times[j]!.push(performance.now() - t0);
      }
    }
    return series.map((s, j) => {
      const sorted = times[j]!.sort((a, b) => a - b);
      const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
      return { label: s.label, p50: q(0.5), p95: q(0.95), p99: q(0.99) };
    });
  }

  const sample = await client.query(rawSql, [tenantId, randomTrace()]);
  const run = () =>
    measureInterleaved([
      { label: "raw indexed SQL (pg, ids of one trace)", fn: (trace) => client.query(rawSql, [tenantId, trace]) },
      {
        label: "findAuditEvents (page + leaves + names)",
        fn: (trace) => findAuditEvents(sqlPool(), tenantId, parseAuditSearch({ traceId: trace })),
      },
      { label: "searchAuditEvents (+ its audit event)", fn: (trace) => searchAuditEvents(actor, { traceId: trace }) },
      // The product prepares its search and event statements (lib/server/db/pg.ts `prepared`); the same
      // lookup prepared is the stricter baseline, printed beside the plain one.
      {
        label: "raw indexed SQL, prepared (named statement)",
        fn: (trace) => client.query({ name: "raw", text: rawSql, values: [tenantId, trace] }),
      },
    ]);
  const quiet = await run();
  let loaded: Measured[] | null = null;
  let loadLine = "";
  if (WITH_LOAD) {
    console.log("starting the gateway load beside the search (bench/gateway/load.ts, 8 connections)…");
    loadProc = spawn(
      process.execPath,
      [
        "--conditions=react-server",
        "--import",
        "tsx",
        "bench/gateway/load.ts",
        "--database-url",
        server.url,
        "--connections",
        "8",
      ],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const lines = createInterface({ input: loadProc.stdout! });
    const output: string[] = [];
    await new Promise<void>((resolve, reject) => {
      lines.on("line", (l) => {
        output.push(l);
        if (l === "ready") resolve();
      });
      loadProc!.once("exit", (code) => reject(new Error(`gateway load exited (${code}) before it was ready`)));
    });
    await new Promise((r) => setTimeout(r, 2000)); // let it reach its steady state
    loaded = await run();
    const exited = new Promise((r) => loadProc!.once("exit", r));
    loadProc.kill("SIGTERM");
    await exited;
    loadLine = output.find((l) => l.startsWith("gateway load:")) ?? "gateway load: (no figures)";
    loadProc = null;
  }
  const plan = await client.query(`EXPLAIN ${rawSql}`, [tenantId, randomTrace()]);

  console.log(
    `\ntraceId search over ${N.toLocaleString("en")} audit events (${traces.toLocaleString("en")} traces), ${ITERATIONS} iterations each; sample hit ${sample.rowCount} rows`,
  );
  const report = (title: string, [raw, query, usecase, rawPrepared]: Measured[]) => {
    console.log(title);
    for (const r of [raw!, rawPrepared!, query!, usecase!])
      console.log(
        `  ${r.label.padEnd(46)} p50 ${r.p50.toFixed(2)} ms   p95 ${r.p95.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms`,
      );
    const ratio = (a: Measured, b: Measured) =>
      `p50 ${(a.p50 / b.p50).toFixed(1)}×   p99 ${(a.p99 / b.p99).toFixed(1)}×`;
    console.log(`  query/raw: ${ratio(query!, raw!)};  use case/raw: ${ratio(usecase!, raw!)}`);
    console.log(
      `  against the prepared raw lookup: query ${ratio(query!, rawPrepared!)};  use case ${ratio(usecase!, rawPrepared!)}`,
    );
  };
  report("quiet (nothing else on this database):", quiet);
  if (loaded) {
    report("with the gateway load beside it:", loaded);
    console.log(`  ${loadLine}`);
  }
  console.log("goal: use case p99 ≤ 20 ms and ≤ 2× the raw lookup's p99, quiet and under load.");
  console.log(
    `raw plan: ${plan.rows
      .map((r) => r["QUERY PLAN"])
      .join(" | ")
      .slice(0, 300)}`,
  );
  await client.end();
  await db().$disconnect();
} finally {
  loadProc?.kill("SIGTERM");
  await server.stop();
}
process.exit(0);

function createHashMd5(s: string): string {
  return createHash("md5").update(s).digest("hex");
}
