// npm run soak [-- --seconds 180] [--agents 4] [--reviewers 2] [--auditors 1] [--witnesses 2]
//
// Several instances, faults included: a throw-away embedded PostgreSQL, the sandbox payment
// provider, two app instances (`next start`, needs `next build` first) and two workers on that one database.
// Mixed traffic for a set time — agents prepare refunds over HTTP, scripted reviewers sign in and approve
// over HTTP, auditors search — and mid-run one app and one worker are killed with SIGKILL and restarted.
// Then it checks: every effect has its audit event, no refund executed twice, every audit event integrated
// into its tenant's Merkle tree, every signed checkpoint consistent, the whole log verifies. Prints
// throughput and p50/p99 per operation. Two local witnesses (`npm run witness`, quorum 2) cosign the tenant's
// log in the background, so it also prints checkpoint → cosigned (--witnesses 0: none). Exit 0 when every check passes, 1 when one fails, 2 when it cannot run.
// A script, not a timed test; the shortened run in `npm test` uses --seconds 40.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { performance } from "node:perf_hooks";
import { startEmbeddedPostgres } from "./lib/embedded-postgres";
import { applyMigrations } from "./lib/migrations";
import { agentKey, customerId, demoTenants, demoUuid, mintEndUserToken, seedDemo } from "./lib/demo-data";
import { liftWindowBudgets } from "./lib/lift-window-budgets";
import { prismaFor } from "./lib/prisma";
import { createPaidOrders } from "./lib/fixtures";
import { appRoleUrl, ensureAppRole } from "./lib/app-role";
import { demoPaymentProvider } from "../lib/config/demo-payment-provider";
import { openPgClient, withPgClient } from "../lib/server/db/pg-client";
import { SIG_COSIGNATURE_V1, ed25519FromSeed, vkeyOf } from "../lib/domain/signed-note";

const argv = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const SECONDS = opt("seconds", 180);
const AGENTS = opt("agents", 4);
const REVIEWERS = opt("reviewers", 2);
const AUDITORS = opt("auditors", 1);
const WITNESSES = opt("witnesses", 2);
const TENANT = "tienda-es";
// The soak runs the demo (embedded PostgreSQL, per-install demo secrets); set before any lib/server module
// loads (lib/server/env.ts reads APP_MODE once).
process.env.APP_MODE = "demo";
/**
 * Distinct orders (each agent call prepares a refund of a new one; every one gets a sandbox intent). Sized for
 * about twice the rate a quiet 2-core machine reaches (≈ 70 prepare_refund/s), so agents do not wrap around
 * onto orders already refunded (which would fill the table's error column with refusals).
 */
const ORDERS = Math.max(400, Math.min(30_000, SECONDS * 150));
const DRAIN_MS = 90_000;

if (!existsSync(join(process.cwd(), ".next", "BUILD_ID"))) {
  console.error("soak: no production build (.next/BUILD_ID): run `npx next build` first");
  process.exit(2);
}
const hardStop = setTimeout(
  () => {
    console.error("soak: time budget exceeded, stopping");
    void shutdown().then(() => process.exit(2));
  },
  (SECONDS + 240) * 1000,
);
hardStop.unref();

const children = new Set<ChildProcess>();
const say = (m: string) => console.log(`[soak] ${m}`);
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      s.close(() => resolve(typeof a === "object" && a ? a.port : 0));
    });
  });

/** Deprecation warnings any child printed (pg's concurrent-query warning among them): each one fails the soak. */
const deprecations: string[] = [];

function spawnChild(name: string, args: string[], env: NodeJS.ProcessEnv, readyLine?: RegExp): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  child.once("exit", () => children.delete(child));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start`)), 90_000);
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream }).on("line", (line) => {
        if (/error|fatal/i.test(line) && !/ECONNRESET|terminating connection/i.test(line))
          console.error(`[${name}] ${line.slice(0, 300)}`);
        if (/DeprecationWarning/.test(line)) deprecations.push(`[${name}] ${line.slice(0, 300)}`);
        if (!readyLine || readyLine.test(line)) {
          clearTimeout(timer);
          resolve(child);
        }
      });
    if (!readyLine) {
      clearTimeout(timer);
      resolve(child);
    }
    child.once("exit", (code, signal) => reject(new Error(`${name} exited (${signal ?? code}) before it was ready`)));
  });
}

const server = await startEmbeddedPostgres({
  dataDir: mkdtempSync(join(tmpdir(), "soak-pg-")),
  ephemeral: true,
  database: "soak",
});
async function shutdown() {
  for (const c of children) c.kill("SIGKILL");
  await server.stop().catch(() => undefined);
}

let exitCode: number;
try {
  await applyMigrations(server.url);
  const prisma = prismaFor(server.url);
  await seedDemo(prisma);
  await prisma.$disconnect();
  await addSoakOrders(server.url);
  // One key and one end user drive every agent call: without this the per-end-user window budget (60 a
  // minute) would turn most of the agent traffic into refusals after the first minute's 60 proposals.
  await liftWindowBudgets(server.url, TENANT);
  // As `npm start` does: graphile-worker's schema by the owner, then the apps and workers run as the
  // least-privileged runtime role (docs/database-roles.md).
  const { prepareJobQueue } = await import("../lib/server/jobs/schema");
  await prepareJobQueue(server.url);
  const rolePassword = randomBytes(24).toString("base64url");
  await ensureAppRole(server.url, { password: rolePassword });
  const appUrl = appRoleUrl(server.url, rolePassword);
  const apiKey = `sk_test_${randomBytes(24).toString("base64url")}`;
  const webhookSecret = `whsec_${randomBytes(24).toString("base64url")}`;

  const sandboxPort = await freePort();
  const appPorts = [await freePort(), await freePort()];
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const baseEnv: NodeJS.ProcessEnv = {
    ...process.env,
    APP_MODE: "demo",
    DATABASE_URL: appUrl,
    PAYMENT_PROVIDER_URL: sandboxUrl,
    PAYMENT_PROVIDER_API_KEY: apiKey,
    PAYMENT_PROVIDER_WEBHOOK_SECRET: webhookSecret,
    LOG_LEVEL: "warn",
    NEXT_TELEMETRY_DISABLED: "1",
    AUDIT_SEQUENCER_INTERVAL_MS: "100",
    WORKER_CONCURRENCY: "4",
    DATABASE_POOL_SIZE: "8",
  };
  const tsx = ["--conditions=react-server", "--import", "tsx"];
  await spawnChild(
    "sandbox",
    [
      ...tsx,
      join("scripts", "provider-sandbox.ts"),
      "--port",
      String(sandboxPort),
      "--database-url",
      server.url.replace(/\/[^/?]+(\?.*)?$/, `/${demoPaymentProvider.database}`),
      "--webhook-url",
      `http://127.0.0.1:${appPorts[0]}/api/payments/webhook`,
      "--api-key",
      apiKey,
      "--webhook-secret",
      webhookSecret,
    ],
    { ...baseEnv, DATABASE_URL: "" },
    /listening on/,
  );
  await registerPaymentIntents(server.url, sandboxUrl);
  const nextBin = join("node_modules", "next", "dist", "bin", "next");
  const startApp = (i: number) =>
    spawnChild(
      `app${i + 1}`,
      [nextBin, "start", "-p", String(appPorts[i]), "-H", "127.0.0.1"],
      { ...baseEnv, NEXTAUTH_URL: `http://127.0.0.1:${appPorts[i]}`, PORT: String(appPorts[i]) },
      /Ready|started server|Local:/,
    );
  const startWorker = (i: number) =>
    spawnChild(
      `worker${i + 1}`,
      [...tsx, join("scripts", "worker.ts")],
      { ...baseEnv, LOG_LEVEL: "info" },
      /worker started/,
    );
  await startWitnesses(server.url, baseEnv);
  const apps = await Promise.all([startApp(0), startApp(1)]);
  const workers = await Promise.all([startWorker(0), startWorker(1)]);
  say(
    `2 apps (ports ${appPorts.join(", ")}), 2 workers, sandbox, PostgreSQL — ${SECONDS}s of traffic: ${AGENTS} agents, ${REVIEWERS} reviewers, ${AUDITORS} auditors`,
  );

  const bases = appPorts.map((p) => `http://127.0.0.1:${p}`);
  const down = new Set<number>();
  const pick = () => {
    const up = [0, 1].filter((i) => !down.has(i));
    return up[Math.floor(Math.random() * up.length)] ?? 1;
  };
  const ops = new Map<string, { lat: number[]; errors: number; why: Map<string, number> }>();
  const record = (op: string, ms: number, ok: boolean, why = "") => {
    const o = ops.get(op) ?? { lat: [] as number[], errors: 0, why: new Map<string, number>() };
    if (ok) o.lat.push(ms);
    else {
      o.errors += 1;
      o.why.set(why, (o.why.get(why) ?? 0) + 1);
    }
    ops.set(op, o);
  };
  const timed = async <T>(op: string, f: () => Promise<T>, ok: (t: T) => boolean): Promise<T | null> => {
    const t0 = performance.now();
    try {
      const r = await f();
      record(op, performance.now() - t0, ok(r), JSON.stringify(r).slice(0, 120));
      return r;
    } catch (error) {
      record(op, performance.now() - t0, false, error instanceof Error ? error.message.slice(0, 120) : "error");
      return null;
    }
  };

  const stopAt = Date.now() + SECONDS * 1000;
  let nextOrder = 0;
  const key = agentKey(TENANT, "web_support");
  const token = await mintEndUserToken(TENANT, "web_support", customerId(TENANT, "ana"));
  const traces: string[] = [];

  const agent = async () => {
    while (Date.now() < stopAt) {
      const order = `SOAK-${String(nextOrder++ % ORDERS).padStart(6, "0")}`;
      const res = await timed(
        "agent prepare_refund",
        async () => {
          const r = await fetch(`${bases[pick()]}/api/agent/tool-calls`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${key}`, "x-end-user-token": token },
            body: JSON.stringify({
              type: "tool_use",
              id: `soak_${order}`,
              name: "prepare_refund",
              input: { order_id: order, reason: "damaged_item" },
            }),
          });
          return { trace: r.headers.get("x-trace-id"), body: (await r.json()) as { content?: string } };
        },
        (x) => !!x.body.content && (JSON.parse(x.body.content) as { code: string }).code === "approval_required",
      );
      if (res?.trace) traces.push(res.trace);
    }
  };

  const staff = demoTenants.find((t) => t.slug === TENANT)!.staff;
  const reviewerAccounts = staff.filter((s) => s.roles.includes("reviewer"));
  const auditorAccount = staff.find((s) => s.roles.includes("auditor"))!;
  const sessions = new Map<string, string>();
  const sessionFor = async (email: string, password: string, base: string) => {
    const k = `${email}@${base}`;
    const known = sessions.get(k);
    if (known) return known;
    const csrf = await fetch(`${base}/api/auth/csrf`);
    const csrfCookie = (csrf.headers.getSetCookie?.() ?? []).map((c) => c.split(";")[0]).join("; ");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const r = await fetch(`${base}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie, origin: base },
      body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
    });
    const session = (r.headers.getSetCookie?.() ?? [])
      .map((c) => c.split(";")[0]!)
      .find((c) => c.startsWith("next-auth.session-token="));
    if (!session) throw new Error(`sign-in failed for ${email}`);
    sessions.set(k, session);
    return session;
  };

  const reviewer = async (n: number) => {
    const account = reviewerAccounts[n % reviewerAccounts.length]!;
    while (Date.now() < stopAt) {
      const base = bases[pick()]!;
      const cookie = await sessionFor(account.email, account.password, base).catch(() => null);
      if (!cookie) {
        record("reviewer sign-in", 0, false);
        await new Promise((r) => setTimeout(r, 500));
        continue;
      }
      const list = await timed(
        "reviewer list queue",
        async () => {
          const r = await fetch(`${base}/api/proposals?limit=20`, { headers: { cookie } });
          return (await r.json()) as { rows?: { id: string; hash: string }[] };
        },
        (x) => Array.isArray(x.rows),
      );
      const items = list?.rows ?? [];
      if (items.length === 0) await new Promise((r) => setTimeout(r, 200));
      for (const p of items.slice(0, 5)) {
        if (Date.now() >= stopAt) break;
        await timed(
          "reviewer approve",
          async () => {
            const r = await fetch(`${base}/api/proposals/${p.id}/approve`, {
              method: "POST",
              headers: { cookie, "content-type": "application/json", origin: base },
              body: JSON.stringify({ hash: p.hash }),
            });
            return { status: r.status, body: (await r.json()) as { code?: string } };
          },
          (x) => x.status === 200 || x.body.code === "conflict",
        );
      }
    }
  };

  const auditor = async () => {
    while (Date.now() < stopAt) {
      const base = bases[pick()]!;
      const cookie = await sessionFor(auditorAccount.email, auditorAccount.password, base).catch(() => null);
      const trace = traces[Math.floor(Math.random() * traces.length)];
      if (!cookie || !trace) {
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      await timed(
        "auditor search by trace",
        async () =>
          (await fetch(`${base}/api/audit/events?traceId=${encodeURIComponent(trace)}`, { headers: { cookie } }))
            .status,
        (s) => s === 200,
      );
    }
  };

  const faults = (async () => {
    await new Promise((r) => setTimeout(r, (SECONDS * 1000) / 3));
    say("SIGKILL app1 and worker1");
    down.add(0);
    sessions.clear();
    apps[0].kill("SIGKILL");
    workers[0].kill("SIGKILL");
    await new Promise((r) => setTimeout(r, 3_000));
    await Promise.all([startApp(0), startWorker(0)]);
    down.delete(0);
    say("app1 and worker1 restarted");
  })();

  const t0 = performance.now();
  await Promise.all([
    ...Array.from({ length: AGENTS }, agent),
    ...Array.from({ length: REVIEWERS }, (_, i) => reviewer(i)),
    ...Array.from({ length: AUDITORS }, auditor),
    faults,
  ]);
  const elapsed = (performance.now() - t0) / 1000;
  say(`traffic done in ${elapsed.toFixed(0)}s; draining (executions, audit sequencer)`);

  const c = await openPgClient(server.url);
  const q = async (sql: string) => (await c.query(sql)).rows[0] as Record<string, number>;
  const drainStarted = Date.now();
  const drainUntil = drainStarted + DRAIN_MS;
  // What the drain waits for, said every 10 s: a slow drain names what held it.
  let lastSaid = drainStarted;
  for (;;) {
    const d = await q(`SELECT (SELECT count(*)::int FROM "AuditPending") AS pending,
                              (SELECT count(*)::int FROM "Proposal" WHERE status IN ('approved', 'executing')) AS running`);
    if ((d.pending === 0 && d.running === 0) || Date.now() > drainUntil) break;
    if (Date.now() - lastSaid >= 10_000) {
      lastSaid = Date.now();
      const held = await c.query<{ what: string }>(
        `SELECT p.status::text || ' ' || COALESCE(x.status::text, 'no execution') || ' (attempts ' || COALESCE(x.attempts, 0) ||
                ', updated ' || round(extract(epoch FROM now() - COALESCE(x."updatedAt", p."updatedAt")))::text || ' s ago' ||
                COALESCE(', ' || left(COALESCE(x."lastError", x."failureReason"), 80), '') || ')' AS what
           FROM "Proposal" p LEFT JOIN "Execution" x ON x."proposalId" = p.id
          WHERE p.status IN ('approved', 'executing') ORDER BY p."updatedAt" LIMIT 5`,
      );
      const jobs = await c
        .query<{ what: string }>(
          `SELECT task_identifier || ' attempts ' || attempts || ' run_at ' || round(extract(epoch FROM run_at - now()))::text || ' s' ||
                CASE WHEN locked_at IS NULL THEN '' ELSE ' locked ' || round(extract(epoch FROM now() - locked_at))::text || ' s ago' END AS what
           FROM graphile_worker.jobs ORDER BY run_at LIMIT 5`,
        )
        .catch(() => ({ rows: [] as { what: string }[] }));
      say(
        `still draining: ${d.pending} audit events pending, ${d.running} proposals approved/executing` +
          (held.rows.length ? `; ${held.rows.map((r) => r.what).join("; ")}` : "") +
          (jobs.rows.length ? `; jobs: ${jobs.rows.map((r) => r.what).join("; ")}` : ""),
      );
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  say(`drained in ${((Date.now() - drainStarted) / 1000).toFixed(1)}s`);
  // The sequencer integrates events written during the drain too: one more short wait for it.
  await new Promise((r) => setTimeout(r, 1_500));

  const latency = await c.query<{ p50: number; p99: number; n: number }>(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) AS p99, count(*)::int AS n
       FROM (SELECT extract(epoch FROM (l."integratedAt" - l."occurredAt")) * 1000 AS ms FROM "AuditLeaf" l) x`,
  );
  // Each stored cosignature: from the checkpoint's signing to the witness's answer (the sequencer submits the
  // newest checkpoint after a batch, in the background; checkpoints signed meanwhile are skipped, not queued).
  const cosign = await c.query<{ p50: number; p99: number; n: number; quorum: number; signed: number }>(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) AS p99, count(*)::int AS n,
            (SELECT count(*)::int FROM (SELECT 1 FROM "AuditCosignature" GROUP BY "logId", "treeSize" HAVING count(*) >= $1) k) AS quorum,
            (SELECT count(*)::int FROM "AuditSignedCheckpoint" WHERE "logId" = $2::uuid) AS signed
       FROM (SELECT extract(epoch FROM (a."cosignedAt" - s."issuedAt")) * 1000 AS ms
               FROM "AuditCosignature" a JOIN "AuditSignedCheckpoint" s ON s."logId" = a."logId" AND s."treeSize" = a."treeSize") x`,
    [WITNESSES, demoUuid(`tenant:${TENANT}`)],
  );
  const refusals = (
    await c.query<{ name: string; lastError: string }>(
      `SELECT name, "lastError" FROM "AuditWitness" WHERE "lastError" IS NOT NULL`,
    )
  ).rows;
  const checks: [string, boolean, string][] = [];
  const check = (name: string, ok: boolean, detail: string) => checks.push([name, ok, detail]);
  const counts = await q(`SELECT
      (SELECT count(*)::int FROM "Proposal") AS proposals,
      (SELECT count(*)::int FROM "Proposal" p WHERE NOT EXISTS (SELECT 1 FROM "AuditEvent" e WHERE e."proposalId" = p.id AND e.action = 'tool:prepare_refund')) AS "proposalsUnaudited",
      (SELECT count(*)::int FROM "Approval") AS approvals,
      (SELECT count(*)::int FROM "Approval" a WHERE NOT EXISTS (SELECT 1 FROM "AuditEvent" e WHERE e."proposalId" = a."proposalId" AND e.action = 'proposal:approve' AND e.outcome = 'ok' AND e."actorId" = a."approverId"::text)) AS "approvalsUnaudited",
      (SELECT count(*)::int FROM "Execution") AS executions,
      (SELECT count(*)::int FROM "Execution" x WHERE NOT EXISTS (SELECT 1 FROM "AuditEvent" e WHERE e."proposalId" = x."proposalId" AND e.action LIKE 'execution:%')) AS "executionsUnaudited",
      (SELECT count(*)::int FROM "Refund") AS refunds,
      (SELECT count(*)::int FROM (SELECT "orderId" FROM "Refund" WHERE status IN ('succeeded', 'pending') GROUP BY 1 HAVING count(*) > 1) d) AS "refundsTwice",
      (SELECT count(*)::int FROM "Proposal" WHERE status IN ('approved', 'executing')) AS "stillRunning",
      (SELECT count(*)::int FROM "AuditEvent") AS events,
      (SELECT count(*)::int FROM "AuditLeaf") AS leaves,
      (SELECT count(*)::int FROM "AuditPending") AS pending,
      (SELECT count(*)::int FROM "AuditSignedCheckpoint") AS checkpoints`);
  const execs = (
    await c.query<{ status: string; n: number }>(
      `SELECT status::text || COALESCE(' (' || left(COALESCE("failureReason", "lastError"), 80) || ')', '') AS status, count(*)::int AS n FROM "Execution" GROUP BY 1 ORDER BY 1`,
    )
  ).rows;
  const provider = await withPgClient(
    server.url.replace(/\/[^/?]+(\?.*)?$/, `/${demoPaymentProvider.database}`),
    async (sandboxDb) =>
      (
        await sandboxDb
          .query(
            `SELECT count(*)::int AS n, count(DISTINCT idempotency_key)::int AS keys, count(DISTINCT payment_intent)::int AS intents FROM refunds`,
          )
          .catch(() => ({ rows: [{ n: -1, keys: -2, intents: -3 }] }))
      ).rows[0] as { n: number; keys: number; intents: number },
  );
  await c.end();

  check(
    "every proposal has its audit event",
    counts.proposalsUnaudited === 0,
    `${counts.proposals} proposals, ${counts.proposalsUnaudited} without`,
  );
  check(
    "every approval has its audit event",
    counts.approvalsUnaudited === 0,
    `${counts.approvals} approvals, ${counts.approvalsUnaudited} without`,
  );
  check(
    "every execution has its audit events",
    counts.executionsUnaudited === 0,
    `${counts.executions} executions, ${counts.executionsUnaudited} without`,
  );
  check(
    "0 refunds executed twice",
    counts.refundsTwice === 0 && provider.n === provider.keys && provider.n === provider.intents,
    `${counts.refunds} refunds; provider: ${provider.n} refunds, ${provider.keys} idempotency keys, ${provider.intents} payment intents`,
  );
  check("executions drained", counts.stillRunning === 0, `${counts.stillRunning} still approved/executing`);
  check(
    "every audit event integrated",
    counts.pending === 0 && counts.leaves === counts.events,
    `${counts.events} events, ${counts.leaves} leaves, ${counts.pending} pending, ${counts.checkpoints} signed checkpoints`,
  );

  if (WITNESSES > 0) {
    const k = cosign.rows[0]!;
    check(
      "the witnesses cosigned the log",
      k.quorum > 0,
      `${k.quorum} checkpoints cosigned by all ${WITNESSES} witnesses, ${k.n} cosignatures`,
    );
  }

  // The whole log, every checkpoint, with the library the app uses (signatures, roots, proofs, content).
  process.env.DATABASE_URL = server.url;
  const { verifyAllAuditChains } = await import("../lib/server/audit/verify-all-chains");
  const v = await verifyAllAuditChains("soak");
  check(
    "all checkpoints consistent, the log verifies",
    v.ok,
    v.ok ? `${v.events} events in ${v.tenants} tenants + tenantless` : JSON.stringify(v.broken),
  );
  const g = globalThis as unknown as { prisma?: { $disconnect(): Promise<void> } };
  await g.prisma?.$disconnect();
  check(
    "no process printed a deprecation warning",
    deprecations.length === 0,
    deprecations.length === 0 ? "apps, workers, sandbox, witnesses: 0" : deprecations.slice(0, 3).join(" | "),
  );

  console.log("");
  const head = ["operation", "ok", "errors", "per s", "p50 ms", "p99 ms"];
  const rows = [...ops].map(([op, o]) => {
    o.lat.sort((a, b) => a - b);
    const pct = (p: number) => o.lat[Math.min(o.lat.length - 1, Math.floor(p * o.lat.length))] ?? NaN;
    return [
      op,
      String(o.lat.length),
      String(o.errors),
      (o.lat.length / elapsed).toFixed(1),
      pct(0.5).toFixed(1),
      pct(0.99).toFixed(1),
    ];
  });
  const l = latency.rows[0]!;
  rows.push(["audit commit → integrated", String(l.n), "0", "", Number(l.p50).toFixed(1), Number(l.p99).toFixed(1)]);
  const k = cosign.rows[0]!;
  if (WITNESSES > 0)
    rows.push([
      "checkpoint → cosigned",
      String(k.n),
      String(refusals.length),
      "",
      Number(k.p50).toFixed(1),
      Number(k.p99).toFixed(1),
    ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((x, i) => (i === 0 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join("  ");
  console.log(line(head));
  for (const r of rows) console.log(line(r));
  console.log("");
  for (const [op, o] of ops) for (const [why, n] of [...o.why].slice(0, 3)) console.log(`  ${op} error ×${n}: ${why}`);
  console.log(`executions: ${execs.map((e) => `${e.status} ${e.n}`).join(", ") || "none"}`);
  if (WITNESSES > 0) {
    console.log(
      `witnesses: ${k.quorum} of ${k.signed} ${TENANT} checkpoints cosigned by all ${WITNESSES} (the newest after each batch is submitted; the others are skipped)`,
    );
    for (const r of refusals) console.log(`  witness ${r.name} last refusal: ${r.lastError.slice(0, 200)}`);
  }
  console.log("");
  for (const [name, ok, detail] of checks) console.log(`${ok ? "ok  " : "FAIL"} ${name} — ${detail}`);
  const failed = checks.filter((x) => !x[1]).length;
  console.log(failed ? `soak FAILED (${failed} checks)` : "soak OK: 0 lost, 0 duplicate, log verified");
  exitCode = failed ? 1 : 0;
} catch (error) {
  console.error(`soak: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  exitCode = 2;
} finally {
  await shutdown();
}
process.exit(exitCode);

/**
 * WITNESSES local witnesses (`npm run witness`, each with its own key and state file) of the soak tenant's
 * log, registered with quorum WITNESSES — as an admin would (POST /api/admin/witnesses), here straight in the
 * database before the apps start. The witness seed is written into its state file, so its vkey is known.
 */
async function startWitnesses(url: string, env: NodeJS.ProcessEnv) {
  if (WITNESSES <= 0) return;
  // The log's vkey as the workers sign with it (same demo secrets, same host name).
  process.env.DATABASE_URL = url;
  const { auditVkey } = await import("../lib/server/audit/signing-key");
  const logVkey = auditVkey();
  const dir = mkdtempSync(join(tmpdir(), "soak-witness-"));
  await withPgClient(url, async (c) => {
    for (let i = 1; i <= WITNESSES; i++) {
      const name = `witness${i}.soak.test`;
      const seed = randomBytes(32);
      const { publicKey } = ed25519FromSeed(seed);
      const state = join(dir, `${name}.json`);
      writeFileSync(state, JSON.stringify({ name, seed: seed.toString("base64"), logVkeys: [logVkey], logs: {} }), {
        mode: 0o600,
      });
      const port = await freePort();
      await spawnChild(
        name,
        ["--import", "tsx", join("scripts", "witness.ts"), "--name", name, "--port", String(port), "--state", state],
        { ...env, DATABASE_URL: "" },
        /"vkey"/,
      );
      await c.query(
        `INSERT INTO "AuditWitness" (id, "tenantId", name, vkey, url) VALUES (gen_random_uuid(), $1::uuid, $2, $3, $4)`,
        [demoUuid(`tenant:${TENANT}`), name, vkeyOf(name, SIG_COSIGNATURE_V1, publicKey), `http://127.0.0.1:${port}`],
      );
    }
    await c.query(`UPDATE "Tenant" SET "witnessQuorum" = $1 WHERE slug = $2`, [WITNESSES, TENANT]);
  });
  say(`${WITNESSES} witnesses of ${TENANT}'s log, quorum ${WITNESSES}`);
}

/** ORDERS paid card orders of Ana (tienda-es), so every agent call prepares a new proposal. */
async function addSoakOrders(url: string) {
  const db = prismaFor(url);
  try {
    const tenant = await db.tenant.findUniqueOrThrow({ where: { slug: TENANT }, select: { id: true, currency: true } });
    await createPaidOrders(db, tenant, {
      count: ORDERS,
      customerIds: [customerId(TENANT, "ana")],
      number: (i) => `SOAK-${String(i).padStart(6, "0")}`,
      amountMinor: (i) => 1000 + (i % 500),
      paymentRef: (number) => `pi_soak_${number.replace(/-/g, "_")}`,
      holderName: "Ana García",
    });
  } finally {
    await db.$disconnect();
  }
}

/** Registers every payment's intent with the sandbox (as `npm start` does for the demo orders). */
async function registerPaymentIntents(databaseUrl: string, sandboxUrl: string) {
  const { sandboxControl } = await import("../provider-sandbox/control-client");
  const control = sandboxControl(sandboxUrl, demoPaymentProvider.controlToken);
  const { rows } = await withPgClient(databaseUrl, (c) =>
    c.query<{ ref: string; amount: number; currency: string }>(
      `SELECT "providerPaymentRef" AS ref, "amountMinor" AS amount, currency FROM "Payment"`,
    ),
  );
  let failed = 0;
  let first = "";
  for (let i = 0; i < rows.length; i += 32)
    await Promise.all(
      rows.slice(i, i + 32).map((r) =>
        control
          .createPaymentIntent({ id: r.ref, amount: r.amount, currency: r.currency.trim(), amountRefunded: 0 })
          .catch((e: unknown) => {
            failed += 1;
            first ||= String(e);
          }),
      ),
    );
  say(
    `${rows.length - failed} payment intents registered with the sandbox${failed ? `, ${failed} failed (${first})` : ""}`,
  );
}
