// npm run bench:gateway [-- --seconds 6] [--no-next] [--rebuild] [--tracing | --live-read]
//
// --live-read: prepare_refund with the live provider read instead (bench/gateway/live-read.ts): two copies of the
// route handler in their own processes, "local" (PAYMENT_PROVIDER_LIVE_READS=0: the ledger only) and "live" (reads
// the real sandbox provider process with tienda-es's own connection), beside "raw"; same slices. Prints the
// difference per level next to a bare provider round trip (the same two requests, at once, from this process).
//
// --tracing: the cost of tracing instead (docs/observability.md). Two copies of the route handler, each in its
// own process (bench/gateway/traced-server.ts) with the OpenTelemetry SDK registered as the app does: "untraced"
// (no OTLP endpoint: the product's default) and "traced" (exporting OTLP/HTTP protobuf through the bounded batch
// processor to a receiver in this process, which answers 200 and counts what it got), beside "raw"; same slices.
//
// prepare_refund throughput and latency (p50/p99) at 1, 8 and 32 concurrent connections, measured in ONE run
// with one load generator (autocannon, closed loop, keep-alive) against three servers on one throw-away
// embedded PostgreSQL (loopback, bounded in time):
//   - "route": the product's route handler (app/api/agent/tool-calls/route.ts) on a plain node:http server
//     (what Next does for a route handler, minus Next);
//   - "next":  the real Next server (`next start` of the production build in .next; built first when .next
//     is missing or with --rebuild; skipped with --no-next);
//   - "raw":   the baseline, bench/gateway/raw-server.ts: node:http + pg, no framework, doing the SAME work
//     statement for statement (same SQL: key, budgets incl. both window counters, order lock, one read,
//     proposal, audit event + sequencer queue row; same hashes) — see its header for exactly what it mirrors.
// Every request prepares a refund for a fresh order (a new proposal each time). Slices alternate between the
// servers so that load from other processes on the machine hits all alike. Also counts the statements each
// in-process server sends per call. A script, not a test: it prints figures and ratios, asserts nothing.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import type { Server } from "node:http";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import autocannon from "autocannon";
import { findFreePort, startEmbeddedPostgres } from "../../scripts/lib/embedded-postgres";
import { applyMigrations } from "../../scripts/lib/migrations";
import { agentKey, customerId, mintEndUserToken, seedDemo } from "../../scripts/lib/demo-data";
import { prismaFor } from "../../scripts/lib/prisma";
import { bareRoundTrips, setUpLiveRead, type LiveReadSetup } from "./live-read";
import { rawPrepareRefundServer } from "./raw-server";
import {
  TENANT,
  adaptRouteHandler,
  addBenchOrders,
  benchOrder,
  isApprovalRequired,
  liftWindowBudgets,
  listen,
  toolCallBody,
  urlOf,
} from "./shared";

const argv = process.argv.slice(2);
const flag = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const SECONDS = Math.min(Number(flag("seconds") ?? 6), 12);
const TRACING = argv.includes("--tracing");
const LIVE = argv.includes("--live-read");
const WITH_NEXT = !argv.includes("--no-next") && !TRACING && !LIVE;
const LEVELS = [1, 8, 32];
const SLICES = 2;
const ORDERS_PER_SERVER = 15_000;
const BUDGET_MS = 240_000; // after the build (if any)

type Side = "route" | "next" | "raw" | "untraced" | "traced" | "local" | "live";

if (WITH_NEXT && (argv.includes("--rebuild") || !existsSync(join(process.cwd(), ".next", "BUILD_ID")))) {
  console.log("bench: building the app for `next start` (next build; 1–4 minutes here)…");
  const built = spawnSync(
    process.execPath,
    [join(process.cwd(), "node_modules", "next", "dist", "bin", "next"), "build"],
    {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, NODE_ENV: "production" },
      timeout: 600_000,
    },
  );
  if (built.status !== 0) {
    console.error("bench: next build failed; run `npm run build` and look at its errors, or pass --no-next");
    process.exit(1);
  }
}

const hardStop = setTimeout(() => {
  console.error(`bench: time budget (${BUDGET_MS / 1000} s) exceeded, stopping`);
  nextProc?.kill("SIGTERM");
  process.exit(3);
}, BUDGET_MS);
hardStop.unref();

const server = await startEmbeddedPostgres({
  dataDir: mkdtempSync(join(tmpdir(), "bench-gateway-pg-")),
  ephemeral: true,
  database: "bench",
});
let routeHttp: Server | null = null;
let rawHttp: Server | null = null;
let rawPool: pg.Pool | null = null;
let nextProc: ChildProcess | null = null;
const children: ChildProcess[] = [];
let otlp: Server | null = null;
let liveSetup: LiveReadSetup | null = null;
/** Servers that already printed their first unexpected answer (one line each, to say what the errors column counts). */
const firstErrors = new Set<string>();
const exported = { requests: 0, bytes: 0 };
/** --tracing: each child writes a V8 CPU profile here when it exits (attribution below). */
const profiles = mkdtempSync(join(tmpdir(), "bench-gateway-prof-"));
try {
  await applyMigrations(server.url);
  const prisma = prismaFor(server.url);
  await seedDemo(prisma);
  // One key and one customer make thousands of calls a minute here: lift the per-key and per-end-user window
  // budgets (their upserts still run on every call, on every side, so their cost is in the figures).
  await prisma.$disconnect();
  await liftWindowBudgets(server.url);
  await addBenchOrders(server.url, ORDERS_PER_SERVER * 3);

  const pool = Number(process.env.DATABASE_POOL_SIZE ?? 10);
  process.env.DATABASE_URL = server.url;
  process.env.APP_MODE = "demo";
  process.env.LOG_LEVEL = "warn";
  // No payment provider runs here: without this every prepare_refund would wait for a live read of the order's
  // payment and answer temporarily_unavailable. Every side (and every child process) reads the stored rows.
  process.env.PAYMENT_PROVIDER_LIVE_READS = "0";
  const { POST } = await import("../../app/api/agent/tool-calls/route");
  routeHttp = await listen(adaptRouteHandler(POST));
  rawPool = new pg.Pool({ connectionString: server.url, max: pool });
  rawPool.on("error", () => undefined); // an idle client dropped by the server must not crash the bench
  rawHttp = await listen(rawPrepareRefundServer(rawPool));

  const urls: Partial<Record<Side, string>> = { route: urlOf(routeHttp), raw: urlOf(rawHttp) };
  const procs: Partial<Record<Side, ChildProcess>> = {};
  if (WITH_NEXT) {
    const port = await findFreePort();
    nextProc = spawn(
      process.execPath,
      [
        join(process.cwd(), "node_modules", "next", "dist", "bin", "next"),
        "start",
        "-H",
        "127.0.0.1",
        "-p",
        String(port),
      ],
      {
        stdio: ["ignore", "ignore", "inherit"],
        env: {
          ...process.env,
          NODE_ENV: "production",
          DATABASE_URL: server.url,
          APP_MODE: "demo",
          LOG_LEVEL: "warn",
          DATABASE_POOL_SIZE: String(pool),
        },
      },
    );
    urls.next = `http://127.0.0.1:${port}/api/agent/tool-calls`;
    await waitForHttp(`http://127.0.0.1:${port}/api/agent/tools`, 60_000);
  }
  if (TRACING) {
    otlp = await listenOtlp(exported);
    const endpoint = urlOf(otlp).replace("/api/agent/tool-calls", "");
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      DATABASE_POOL_SIZE: String(pool),
    };
    delete env.OTEL_EXPORTER_OTLP_ENDPOINT;
    urls.untraced = await startChild(env, children, join(profiles, "untraced"));
    procs.untraced = children.at(-1);
    urls.traced = await startChild(
      { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf" },
      children,
      join(profiles, "traced"),
    );
    procs.traced = children.at(-1);
  }
  if (LIVE) {
    liveSetup = await setUpLiveRead(server.url, ORDERS_PER_SERVER * 3);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      DATABASE_POOL_SIZE: String(pool),
      SECRETS_KEY: liveSetup.secretsKey,
      PAYMENT_PROVIDER_URL: liveSetup.sandboxUrl,
    };
    delete env.OTEL_EXPORTER_OTLP_ENDPOINT;
    urls.local = await startChild({ ...env, PAYMENT_PROVIDER_LIVE_READS: "0" }, children, join(profiles, "local"));
    procs.local = children.at(-1);
    urls.live = await startChild({ ...env, PAYMENT_PROVIDER_LIVE_READS: "1" }, children, join(profiles, "live"));
    procs.live = children.at(-1);
  }
  const sides = (
    TRACING
      ? (["untraced", "traced", "raw"] as const)
      : LIVE
        ? (["local", "live", "raw"] as const)
        : (["route", "next", "raw"] as const)
  ).filter((s) => urls[s]);

  const key = agentKey(TENANT, "web_support");
  const token = await mintEndUserToken(TENANT, "web_support", customerId(TENANT, "ana"));
  const nextOrder: Record<Side, () => string> = {
    route: counter(0),
    next: counter(ORDERS_PER_SERVER),
    raw: counter(2 * ORDERS_PER_SERVER),
    // --tracing runs no route/next side: their orders are free.
    untraced: counter(0),
    traced: counter(ORDERS_PER_SERVER),
    local: counter(0),
    live: counter(ORDERS_PER_SERVER),
  };

  // Round trips per call: every statement an in-process side sends through pg (Prisma's adapter uses pg too).
  if (!TRACING && !LIVE) {
    const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
    const original = proto.query;
    let count = 0;
    proto.query = function (this: unknown, ...a: unknown[]) {
      count += 1;
      return original.apply(this, a);
    };
    const per = async (side: Side) => {
      await callOnce(urls[side]!, key, token, nextOrder[side]()); // warm-up (connections, caches)
      const before = count;
      const n = 20;
      for (let i = 0; i < n; i++) await callOnce(urls[side]!, key, token, nextOrder[side]());
      return (count - before) / n;
    };
    const rq = await per("route");
    const bq = await per("raw");
    proto.query = original;
    console.log(
      `statements per prepare_refund (incl. BEGIN/COMMIT): route handler ${rq.toFixed(1)}, raw ${bq.toFixed(1)} (next: the same code as the route handler)`,
    );
    // CPU per call of this process (both in-process servers, and the fetch client on both sides alike), one
    // call at a time, after a warm-up; the smallest of 3 rounds per side. CPU time is what a loaded machine
    // turns into the throughput ratio, and it is far less noisy than req/s at this load.
    const cpuPer = async (side: Side) => {
      const n = 40;
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < n; i++) await callOnce(urls[side]!, key, token, nextOrder[side]());
      const d = process.cpuUsage(cpu0);
      return (d.user + d.system) / 1000 / n;
    };
    for (let i = 0; i < 20; i++)
      for (const side of ["route", "raw"] as const) await callOnce(urls[side]!, key, token, nextOrder[side]());
    const cpu = { route: Infinity, raw: Infinity };
    for (let round = 0; round < 3; round++)
      for (const side of ["route", "raw"] as const) cpu[side] = Math.min(cpu[side], await cpuPer(side));
    console.log(
      `CPU per prepare_refund in the bench process (sequential; fetch client included on both sides): route handler ${cpu.route.toFixed(2)} ms, raw ${cpu.raw.toFixed(2)} ms, route − raw ${(cpu.route - cpu.raw).toFixed(2)} ms, route ÷ raw ${(cpu.route / cpu.raw).toFixed(2)}`,
    );
  }
  // Warm-up of every side (JIT, pools, Next's lazy route compilation) before anything is measured.
  for (const side of sides) await load(urls[side]!, key, token, 8, 1, nextOrder[side]);

  console.log(
    `prepare_refund, ${SECONDS} s per server and level in ${SLICES} alternating slices, autocannon ${autocannonVersion()} (closed loop, keep-alive), loopback, PostgreSQL (embedded, fsync off), pool ${pool} per server`,
  );
  console.log(
    `servers: ${sides
      .map(
        (s) =>
          ({
            route: "route handler on node:http",
            next: "next start (production build)",
            raw: "raw node:http + pg (baseline)",
            untraced: "route handler, own process, OpenTelemetry not configured",
            traced: "route handler, own process, exporting OTLP/HTTP protobuf",
            local: "route handler, own process, ledger only (PAYMENT_PROVIDER_LIVE_READS=0)",
            live: "route handler, own process, live read of the sandbox provider process (tenant's own connection)",
          })[s],
      )
      .join("; ")}`,
  );
  const rows: string[][] = [];
  const cpuRows: string[][] = [];
  for (const c of LEVELS) {
    const stats = Object.fromEntries(sides.map((s) => [s, emptyStats()])) as Record<Side, Stats>;
    const cpu: Partial<Record<Side, { micros: number; calls: number }>> = {};
    for (let slice = 0; slice < SLICES; slice++) {
      for (const side of sides) {
        const proc = procs[side];
        const before = proc ? await cpuOf(proc) : 0;
        const part = await load(urls[side]!, key, token, c, SECONDS / SLICES, nextOrder[side]);
        merge(stats[side], part);
        if (proc) {
          const used = (cpu[side] ??= { micros: 0, calls: 0 });
          used.micros += (await cpuOf(proc)) - before;
          used.calls += part.latencies.length;
        }
      }
    }
    if (cpu.live && cpu.local) {
      const per = (u: { micros: number; calls: number }) => u.micros / 1000 / u.calls;
      cpuRows.push([
        String(c),
        per(cpu.local).toFixed(2),
        per(cpu.live).toFixed(2),
        `${((per(cpu.live) / per(cpu.local) - 1) * 100).toFixed(1)} %`,
      ]);
    }
    if (cpu.traced && cpu.untraced) {
      const per = (u: { micros: number; calls: number }) => u.micros / 1000 / u.calls;
      cpuRows.push([
        String(c),
        per(cpu.untraced).toFixed(2),
        per(cpu.traced).toFixed(2),
        `${((per(cpu.traced) / per(cpu.untraced) - 1) * 100).toFixed(1)} %`,
      ]);
    }
    for (const side of sides) finish(stats[side]);
    const r = stats.raw;
    for (const side of sides) {
      const s = stats[side];
      rows.push([
        String(c),
        side,
        s.rps.toFixed(0),
        s.p50.toFixed(1),
        s.p99.toFixed(1),
        side === "raw" ? "1.00" : (s.rps / r.rps).toFixed(2),
        side === "raw" ? "1.00" : (s.p99 / r.p99).toFixed(2),
        String(s.errors),
      ]);
    }
  }
  printTable(["clients", "server", "req/s", "p50 ms", "p99 ms", "req/s ÷ raw", "p99 ÷ raw p99", "errors"], rows);
  if (TRACING) {
    const rps = (c: string, side: Side) => Number(rows.find((r) => r[0] === c && r[1] === side)?.[2] ?? NaN);
    for (const c of LEVELS) {
      const cost = 1 - rps(String(c), "traced") / rps(String(c), "untraced");
      console.log(`${c} clients: tracing costs ${(cost * 100).toFixed(1)} % of the untraced throughput`);
    }
    console.log(
      "\nCPU time of each server process per call (user + system; less noisy than req/s, still ±30 % under load):",
    );
    printTable(["clients", "untraced CPU ms/call", "traced CPU ms/call", "tracing adds"], cpuRows);
    console.log(
      `the receiver got ${exported.requests} OTLP export requests, ${(exported.bytes / 1024).toFixed(0)} KiB`,
    );
    console.log(
      "goal (observability): traced req/s ≥ 0.9 × untraced at every level (on a quiet machine; see the profile below otherwise).",
    );
  } else if (LIVE) {
    const cell = (c: number, side: Side, i: number) =>
      Number(rows.find((r) => r[0] === String(c) && r[1] === side)?.[i] ?? NaN);
    // The provider's part alone, one pair at a time (no load of ours on the sandbox): payment intents no side used.
    const bare = await bareRoundTrips(
      liveSetup!.sandboxUrl,
      liveSetup!.apiKey,
      Array.from(
        { length: 200 },
        (_, i) => `pi_bench_${benchOrder(2 * ORDERS_PER_SERVER + ORDERS_PER_SERVER - 1 - i)}`,
      ),
    );
    const pct = (p: number) => bare[Math.min(bare.length - 1, Math.floor((p / 100) * bare.length))]!;
    console.log(
      `\nbare provider round trip (GET payment intent + GET its refunds at once, what readPayment sends; 200 in a row): p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms`,
    );
    printTable(
      ["clients", "live ÷ local req/s", "live − local p50 ms", "÷ bare round trip p50"],
      LEVELS.map((c) => {
        const extra = cell(c, "live", 3) - cell(c, "local", 3);
        return [
          String(c),
          (cell(c, "live", 2) / cell(c, "local", 2)).toFixed(2),
          extra.toFixed(1),
          (extra / pct(50)).toFixed(2),
        ];
      }),
    );
    console.log("\nCPU time of each server process per call (user + system):");
    printTable(["clients", "local CPU ms/call", "live CPU ms/call", "live adds"], cpuRows);
    console.log(
      "expected: at 1 client, live − local p50 ≈ one bare round trip (÷ ≈ 1); more would mean more than one round trip per prepare.",
    );
  } else console.log("goal: req/s ÷ raw ≥ 0.6 and p99 ÷ raw p99 ≤ 3 at every level, for route and next.");
} finally {
  nextProc?.kill("SIGTERM");
  for (const child of children) child.kill("SIGTERM");
  await Promise.all(
    children.map((child) => new Promise<void>((r) => (child.exitCode === null ? child.once("exit", () => r()) : r()))),
  );
  await new Promise<void>((r) => (otlp ? otlp.close(() => r()) : r()));
  await new Promise<void>((r) => (routeHttp ? routeHttp.close(() => r()) : r()));
  await new Promise<void>((r) => (rawHttp ? rawHttp.close(() => r()) : r()));
  await rawPool?.end();
  await liveSetup?.stop();
  const g = globalThis as unknown as { prisma?: { $disconnect(): Promise<void> } };
  await g.prisma?.$disconnect();
  if (nextProc && nextProc.exitCode === null) await new Promise((r) => nextProc!.once("exit", r));
  await server.stop();
}
if (TRACING) printTracingShare(profiles);
process.exit(0);

// ---- where the CPU went (--tracing) ---------------------------------------------------------------

/**
 * Throughput and CPU-per-call on a shared machine move by tens of percent between slices; a CPU profile of the
 * same process does not: it says which code the samples landed in. Tracing's cost is the share of the server's
 * busy samples (idle excluded) in the OpenTelemetry packages, the protobuf encoder and lib/server/telemetry, the
 * exporter's HTTP requests included (node:http and the socket writes they cause are not attributed: a lower bound
 * for those, which the receiver's byte count puts in proportion).
 */
function printTracingShare(dir: string) {
  const share = (side: "untraced" | "traced") => {
    const file = readdirSync(join(dir, side)).find((f) => f.endsWith(".cpuprofile"));
    if (!file) return null;
    const profile = JSON.parse(readFileSync(join(dir, side, file), "utf8")) as {
      nodes: { id: number; callFrame: { url: string; functionName: string } }[];
      samples: number[];
      timeDeltas: number[];
    };
    const micros = new Map<number, number>();
    profile.samples.forEach((id, i) => micros.set(id, (micros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
    let busy = 0;
    let tracing = 0;
    for (const node of profile.nodes) {
      const t = micros.get(node.id) ?? 0;
      if (node.callFrame.functionName === "(idle)") continue;
      busy += t;
      if (/\/@opentelemetry\/|\/protobufjs\/|\/lib\/server\/telemetry\//.test(node.callFrame.url)) tracing += t;
    }
    return { busy: busy / 1000, tracing: tracing / 1000 };
  };
  const rows = (["untraced", "traced"] as const).flatMap((side) => {
    const s = share(side);
    return s ? [[side, s.busy.toFixed(0), s.tracing.toFixed(0), `${((s.tracing / s.busy) * 100).toFixed(1)} %`]] : [];
  });
  console.log("\nWhere each server's CPU went (V8 CPU profile of the whole run; idle excluded):");
  printTable(["server", "busy ms", "in tracing code ms", "share"], rows);
  console.log("goal (observability), on a loaded machine: the traced server's share in tracing code ≤ 10 %.");
}

// ---- load ----------------------------------------------------------------------------------------

type Stats = { latencies: number[]; elapsed: number; errors: number; rps: number; p50: number; p99: number };
function emptyStats(): Stats {
  return { latencies: [], elapsed: 0, errors: 0, rps: 0, p50: NaN, p99: NaN };
}
function merge(into: Stats, part: { latencies: number[]; elapsed: number; errors: number }) {
  for (const l of part.latencies) into.latencies.push(l);
  into.elapsed += part.elapsed;
  into.errors += part.errors;
}
function finish(s: Stats) {
  s.latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    s.latencies[Math.min(s.latencies.length - 1, Math.floor((p / 100) * s.latencies.length))] ?? NaN;
  s.rps = s.latencies.length / s.elapsed;
  s.p50 = pct(50);
  s.p99 = pct(99);
}

function counter(start: number) {
  let i = 0;
  return () => benchOrder(start + (i++ % ORDERS_PER_SERVER));
}

/** One slice: `connections` closed-loop autocannon connections for `seconds`; every response checked. */
async function load(
  url: string,
  key: string,
  token: string,
  connections: number,
  seconds: number,
  nextOrder: () => string,
) {
  const latencies: number[] = [];
  let errors = 0;
  let n = 0;
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration: seconds,
        timeout: 30,
        requests: [
          {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${key}`, "x-end-user-token": token },
            setupRequest: (req) => ({ ...req, body: toolCallBody(nextOrder(), n++) }),
            onResponse: (status, text) => {
              if (status !== 200 || !isApprovalRequired(text)) {
                if (errors++ === 0 && !firstErrors.has(url)) {
                  firstErrors.add(url);
                  console.error(`bench: first unexpected answer from ${url}: ${status} ${text.slice(0, 300)}`);
                }
              }
            },
          },
        ],
      },
      (error, r) => (error ? reject(error as Error) : resolve(r)),
    );
    instance.on("response", (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
  errors += result.errors + result.timeouts;
  return { latencies, elapsed: Math.max((performance.now() - started) / 1000, result.duration), errors };
}

async function callOnce(url: string, key: string, token: string, order: string) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}`, "x-end-user-token": token },
    body: toolCallBody(order, 0),
  });
  const text = await res.text();
  if (!isApprovalRequired(text)) throw new Error(`bench: unexpected answer ${text.slice(0, 300)}`);
}

async function waitForHttp(url: string, ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`bench: ${url} did not answer within ${ms / 1000} s`);
}

function autocannonVersion(): string {
  return (
    JSON.parse(readFileSync(join(process.cwd(), "node_modules", "autocannon", "package.json"), "utf8")) as {
      version: string;
    }
  ).version;
}

function printTable(head: string[], rows: string[][]) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join("  ");
  console.log(line(head));
  for (const r of rows) console.log(line(r));
}

/** The local OTLP/HTTP receiver of --tracing: reads every export, answers 200 with an empty (valid) protobuf answer. */
function listenOtlp(counts: { requests: number; bytes: number }): Promise<Server> {
  return listen((req, res) => {
    req.on("data", (c: Buffer) => (counts.bytes += c.length));
    req.on("end", () => {
      counts.requests += 1;
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
}

/** A traced-server's CPU time so far (user + system), in microseconds, asked over its IPC channel. */
function cpuOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once("message", (m: { cpu: NodeJS.CpuUsage }) => resolve(m.cpu.user + m.cpu.system));
    child.send("cpu");
  });
}

/** One bench/gateway/traced-server.ts process; resolves with its URL once it listens. */
function startChild(env: NodeJS.ProcessEnv, into: ChildProcess[], profileDir: string): Promise<string> {
  const args = [
    `--cpu-prof`,
    `--cpu-prof-dir=${profileDir}`,
    "--conditions=react-server",
    "--import",
    "tsx",
    join("bench", "gateway", "traced-server.ts"),
  ];
  const child = spawn(process.execPath, args, {
    stdio: ["ignore", "pipe", "inherit", "ipc"],
    env,
  });
  into.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`traced-server did not start: ${out}`)), 60_000);
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /listening (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once("exit", (code) => reject(new Error(`traced-server exited (${code}): ${out}`)));
  });
}
