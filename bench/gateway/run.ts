// npm run bench:gateway [-- --base-url http://localhost:3000] [--seconds 4]
//
// prepare_refund throughput and latency (p50/p99) at 1, 8 and 32 concurrent clients, through the real
// route handler (served by a plain node:http server, or the running Next server with --base-url), beside
// a raw node:http + pg server doing the same SQL in the same run. Starts its own throw-away embedded
// PostgreSQL, loopback only, bounded in time. A script, not a test: it prints figures, asserts nothing.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createHash, randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import canonicalize from "canonicalize";
import { jwtVerify } from "jose";
import { startEmbeddedPostgres } from "../../scripts/lib/embedded-postgres";
import { applyMigrations } from "../../scripts/lib/migrations";
import { agentKey, customerId, demoUuid, mintEndUserToken, seedDemo } from "../../scripts/lib/demo-data";
import { prismaFor } from "../../scripts/lib/prisma";

const argv = process.argv.slice(2);
const flag = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const BASE_URL = flag("base-url");
const SECONDS = Math.min(Number(flag("seconds") ?? 4), 8);
const LEVELS = [1, 8, 32];
const SLICES = 4;
const ORDERS_PER_SERVER = 12_000;
const TENANT = "tienda-es";
const DEADLINE = Date.now() + 115_000;

const hardStop = setTimeout(() => {
  console.error("bench: time budget (2 minutes) exceeded, stopping");
  process.exit(3);
}, 118_000);
hardStop.unref();

const server = await startEmbeddedPostgres({ dataDir: mkdtempSync(join(tmpdir(), "bench-gateway-pg-")), ephemeral: true, database: "bench" });
let gatewayHttp: Server | null = null;
let rawHttp: Server | null = null;
let rawPool: pg.Pool | null = null;
try {
  await applyMigrations(server.url);
  const prisma = prismaFor(server.url);
  await seedDemo(prisma);
  // One key and one customer make thousands of calls a minute here: lift the per-key and per-end-user window
  // budgets (their upsert still runs on every call, so its cost is in the figures).
  const benchTenant = await prisma.tenant.findUniqueOrThrow({ where: { slug: TENANT } });
  await prisma.agentBudgetPolicy.upsert({
    where: { tenantId: benchTenant.id },
    create: { tenantId: benchTenant.id, maxCallsPerKeyPerWindow: 100_000_000, maxCallsPerEndUserPerWindow: 100_000_000 },
    update: { maxCallsPerKeyPerWindow: 100_000_000, maxCallsPerEndUserPerWindow: 100_000_000 },
  });
  await prisma.$disconnect();
  await addBenchOrders(server.url);

  process.env.DATABASE_URL = server.url;
  process.env.APP_MODE = "demo";
  process.env.LOG_LEVEL = "warn";
  const { POST } = await import("../../app/api/agent/tool-calls/route");

  gatewayHttp = await listen(adaptRouteHandler(POST));
  rawPool = new pg.Pool({ connectionString: server.url, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
  rawPool.on("error", () => undefined); // an idle client dropped by the server must not crash the bench
  rawHttp = await listen(rawPrepareRefundServer(rawPool));

  const key = agentKey(TENANT, "web_support");
  const token = await mintEndUserToken(TENANT, "web_support", customerId(TENANT, "ana"));
  const gatewayUrl = BASE_URL ? `${BASE_URL.replace(/\/$/, "")}/api/agent/tool-calls` : urlOf(gatewayHttp);
  const rawUrl = urlOf(rawHttp);
  // Against an external server the bench orders do not exist: both sides use the demo order (reuse path).
  const orderFor = BASE_URL ? () => "ORD-1001" : null;

  // Round trips per call: every statement either side sends through pg (Prisma's adapter uses pg too).
  {
    const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
    const original = proto.query;
    let count = 0;
    proto.query = function (this: unknown, ...a: unknown[]) {
      count += 1;
      return original.apply(this, a);
    };
    const per = async (url: string, order: (i: number) => string) => {
      await measure(url, key, token, 1, () => order(0), 1); // warm-up (connections, caches)
      const before = count;
      const n = 20;
      for (let i = 1; i <= n; i++) await measure(url, key, token, 1, () => order(i), 1);
      return (count - before) / n;
    };
    const gq = await per(gatewayUrl, (i) => orderFor?.() ?? benchOrder(ORDERS_PER_SERVER - 1 - i));
    const rq = await per(rawUrl, (i) => orderFor?.() ?? benchOrder(2 * ORDERS_PER_SERVER - 1 - i));
    proto.query = original;
    console.log(
      `statements per prepare_refund (incl. BEGIN/COMMIT): gateway ${BASE_URL ? "(external server: not counted)" : gq.toFixed(1)}, raw ${rq.toFixed(1)}`,
    );
  }
  console.log(
    `prepare_refund, ${SECONDS}s per side and level in ${SLICES} alternating slices, loopback, PostgreSQL 18 (embedded, fsync off), pool ${process.env.DATABASE_POOL_SIZE ?? 10}`,
  );
  console.log(`gateway: ${BASE_URL ? `Next server at ${BASE_URL}` : "route handler on node:http"}; baseline: node:http + pg, same SQL`);
  const rows: string[][] = [];
  let gatewayNext = 0;
  let rawNext = ORDERS_PER_SERVER;
  for (const c of LEVELS) {
    if (Date.now() > DEADLINE - 2 * (SECONDS + 2) * 1000) break;
    // Alternate short slices (gateway, raw, gateway, raw…) so that load from other processes on the
    // machine hits both sides alike.
    const g = emptyStats();
    const r = emptyStats();
    for (let slice = 0; slice < SLICES; slice++) {
      merge(g, await measure(gatewayUrl, key, token, c, () => orderFor?.() ?? benchOrder(gatewayNext++ % ORDERS_PER_SERVER)));
      merge(r, await measure(rawUrl, key, token, c, () => orderFor?.() ?? benchOrder(ORDERS_PER_SERVER + (rawNext++ % ORDERS_PER_SERVER))));
    }
    finish(g);
    finish(r);
    rows.push([
      String(c),
      g.rps.toFixed(0),
      g.p50.toFixed(1),
      g.p99.toFixed(1),
      r.rps.toFixed(0),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      (g.rps / r.rps).toFixed(2),
      `${g.errors}/${r.errors}`,
    ]);
  }
  printTable(["clients", "gw req/s", "gw p50 ms", "gw p99 ms", "raw req/s", "raw p50 ms", "raw p99 ms", "gw/raw", "errors gw/raw"], rows);
} finally {
  await new Promise<void>((r) => (gatewayHttp ? gatewayHttp.close(() => r()) : r()));
  await new Promise<void>((r) => (rawHttp ? rawHttp.close(() => r()) : r()));
  await rawPool?.end();
  const g = globalThis as unknown as { prisma?: { $disconnect(): Promise<void> } };
  await g.prisma?.$disconnect();
  await server.stop();
}
process.exit(0);

// ---- load generator ------------------------------------------------------------------------------

type Stats = { latencies: number[]; elapsed: number; errors: number; rps: number; p50: number; p99: number };
function emptyStats(): Stats {
  return { latencies: [], elapsed: 0, errors: 0, rps: 0, p50: NaN, p99: NaN };
}
function merge(into: Stats, part: { latencies: number[]; elapsed: number; errors: number }) {
  into.latencies.push(...part.latencies);
  into.elapsed += part.elapsed;
  into.errors += part.errors;
}
function finish(s: Stats) {
  s.latencies.sort((a, b) => a - b);
  const pct = (p: number) => s.latencies[Math.min(s.latencies.length - 1, Math.floor((p / 100) * s.latencies.length))] ?? NaN;
  s.rps = s.latencies.length / s.elapsed;
  s.p50 = pct(50);
  s.p99 = pct(99);
}

/** One slice: `clients` closed-loop clients for SECONDS / SLICES seconds (after a short warm-up). */
async function measure(url: string, key: string, token: string, clients: number, nextOrder: () => string, requests = Infinity) {
  const latencies: number[] = [];
  let errors = 0;
  const warmupUntil = performance.now() + (Number.isFinite(requests) ? 0 : 200);
  const stopAt = warmupUntil + (SECONDS * 1000) / SLICES;
  let n = 0;
  const worker = async () => {
    while (Number.isFinite(requests) ? n < requests : performance.now() < stopAt) {
      const body = JSON.stringify({ type: "tool_use", id: `bench_${n++}`, name: "prepare_refund", input: { order_id: nextOrder(), reason: "damaged_item" } });
      const t0 = performance.now();
      try {
        const res = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${key}`, "x-end-user-token": token },
          body,
        });
        const json = (await res.json()) as { content?: string };
        const code = json.content ? (JSON.parse(json.content) as { code: string }).code : "?";
        if (code !== "approval_required") errors += 1;
      } catch {
        errors += 1;
      }
      const t1 = performance.now();
      if (t0 >= warmupUntil) latencies.push(t1 - t0);
    }
  };
  await Promise.all(Array.from({ length: clients }, worker));
  const elapsed = (performance.now() - warmupUntil) / 1000;
  return { latencies, elapsed, errors };
}

function printTable(head: string[], rows: string[][]) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join("  ");
  console.log(line(head));
  for (const r of rows) console.log(line(r));
}

// ---- servers -------------------------------------------------------------------------------------

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  return new Promise((resolve) => {
    const s = createServer({ keepAliveTimeout: 10_000 }, handler);
    s.listen(0, "127.0.0.1", () => resolve(s));
  });
}

function urlOf(s: Server): string {
  const a = s.address();
  return `http://127.0.0.1:${typeof a === "object" && a ? a.port : 0}/api/agent/tool-calls`;
}

async function readAll(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** node:http → Web Request → the route handler → node:http (what Next does for a route handler). */
function adaptRouteHandler(POST: (req: Request) => Promise<Response>) {
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readAll(req);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const response = await POST(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(await response.text());
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  };
}

/** The baseline: the same SQL as the gateway's prepare_refund path, hand-written on pg, no framework. */
function rawPrepareRefundServer(pool: pg.Pool) {
  const sha = (s: string) => createHash("sha256").update(s).digest("hex");
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const traceId = randomUUID().replace(/-/g, "");
    const send = (code: string, payload: Record<string, unknown>) => {
      const b = JSON.parse(body || "{}") as { id?: string };
      res.writeHead(200, { "content-type": "application/json", "x-trace-id": traceId });
      res.end(
        JSON.stringify({
          type: "tool_result",
          tool_use_id: b.id ?? "unknown",
          is_error: code !== "approval_required",
          content: JSON.stringify({ code, ...payload, traceId }),
        }),
      );
    };
    const body = await readAll(req);
    const call = JSON.parse(body) as { name: string; input: { order_id: string; reason: string } };
    const bearer = String(req.headers.authorization ?? "").replace(/^Bearer\s+/i, "");
    const { rows: keys } = await pool.query(
      `WITH touched AS (UPDATE "AgentKey" SET "lastUsedAt" = (now() AT TIME ZONE 'UTC') WHERE "keyHash" = $1 AND "revokedAt" IS NULL
                          AND ("lastUsedAt" IS NULL OR "lastUsedAt" < (now() AT TIME ZONE 'UTC') - interval '1 minute'))
       SELECT k.id, k."tenantId", k."revokedAt", k."allowedTools" AS "keyTools", c.slug AS channel, c."endUserTokenSecret", c."allowedTools" AS "channelTools",
              t.slug AS tenant, t.active, t."approvalExpiryMinutes", t."dualApprovalThresholdMinor"
         FROM "AgentKey" k JOIN "Channel" c ON c.id = k."channelId" JOIN "Tenant" t ON t.id = k."tenantId" WHERE k."keyHash" = $1`,
      [sha(bearer)],
    );
    const key = keys[0];
    if (!key || key.revokedAt) return send("unauthenticated", { error: { message: "bad key" } });
    const repeat = "repeat:" + sha(call.name + "\u0000" + canonicalize(call.input)).slice(0, 32);
    await pool.query(
      `WITH bumped AS (
         INSERT INTO "AgentTraceCounter" ("tenantId", "traceId", "counter", "count") VALUES ($1::uuid, $2, 'calls', 1), ($1::uuid, $2, $3, 1)
         ON CONFLICT ("tenantId", "traceId", "counter") DO UPDATE SET "count" = "AgentTraceCounter"."count" + 1, "updatedAt" = (now() AT TIME ZONE 'UTC')
         RETURNING "counter", "count")
       SELECT "counter", "count" FROM bumped
       UNION ALL SELECT "counter", "count" FROM "AgentTraceCounter" WHERE "tenantId" = $1::uuid AND "traceId" = $2 AND "counter" IN ('errors', 'spent')
       UNION ALL SELECT 'policy:' || k, v FROM "AgentBudgetPolicy" p, LATERAL (VALUES ('calls', p."maxCallsPerTrace"), ('repeats', p."maxRepeatsPerTrace"), ('errors', p."maxErrorsPerTrace")) AS x(k, v) WHERE p."tenantId" = $1::uuid`,
      [key.tenantId, traceId, repeat],
    );
    const { payload } = await jwtVerify(String(req.headers["x-end-user-token"]), new TextEncoder().encode(key.endUserTokenSecret), {
      algorithms: ["HS256"],
      requiredClaims: ["exp", "sub"],
    });
    const customer = String(payload.sub);
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const { rows: orders } = await client.query(
        `SELECT "id", "number", "currency", "capturedMinor" FROM "Order" WHERE "tenantId" = $1::uuid AND "number" = $2 AND "customerId" = $3 FOR UPDATE`,
        [key.tenantId, call.input.order_id, customer],
      );
      const order = orders[0];
      let proposal: Record<string, unknown> | null = null;
      if (order) {
        const { rows: pending } = await client.query(`SELECT * FROM "Proposal" WHERE "orderId" = $1 AND status = 'pending_approval' LIMIT 1`, [order.id]);
        if (pending[0] && pending[0].expiresAt > new Date()) proposal = pending[0];
        else {
          const { rows: r1 } = await client.query(
            `SELECT COALESCE(SUM("amountMinor"), 0)::int AS s FROM "Refund" WHERE "orderId" = $1 AND status IN ('succeeded', 'pending')`,
            [order.id],
          );
          const { rows: r2 } = await client.query(
            `SELECT COALESCE(SUM("amountMinor"), 0)::int AS s FROM "Proposal" WHERE "orderId" = $1 AND status IN ('pending_approval', 'approved', 'executing', 'needs_reconciliation')`,
            [order.id],
          );
          const { rows: pays } = await client.query(`SELECT * FROM "Payment" WHERE "orderId" = $1 AND "tenantId" = $2::uuid ORDER BY "createdAt" LIMIT 1`, [
            order.id,
            key.tenantId,
          ]);
          const amount = order.capturedMinor - r1[0].s - r2[0].s;
          const pay = pays[0];
          const id = randomUUID();
          const expiresAt = new Date(Date.now() + key.approvalExpiryMinutes * 60_000);
          const hash = sha(
            canonicalize({
              v: 1,
              id,
              tenantId: key.tenantId,
              tool: "prepare_refund",
              orderId: order.id,
              amount: { minor: amount, currency: order.currency },
              recipient: { kind: pay.method, ref: pay.providerPaymentRef, holder: pay.holderName },
              reason: call.input.reason,
              expiresAt: expiresAt.toISOString(),
            })!,
          );
          const { rows: created } = await client.query(
            `INSERT INTO "Proposal" (id, "tenantId", "orderId", "customerId", "paymentId", "requestedByAgentKeyId", "channelId", "endUserId", "amountMinor", currency,
               "recipientKind", "recipientRef", "recipientHolder", "recipientDisplay", reason, hash, "expiresAt", "requiredApprovals", "traceId", "updatedAt")
             VALUES ($1, $2, $3, $4, $5, $6, (SELECT "channelId" FROM "AgentKey" WHERE id = $6), $4, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, now()) RETURNING *`,
            [
              id,
              key.tenantId,
              order.id,
              customer,
              pay.id,
              key.id,
              amount,
              order.currency,
              pay.method,
              pay.providerPaymentRef,
              pay.holderName,
              pay.display,
              call.input.reason,
              hash,
              expiresAt,
              1,
              traceId,
            ],
          );
          proposal = created[0];
        }
      }
      // The audit event: the same single statement as lib/server/audit/record-event.ts (event + sequencer
      // queue row, no lock, leaf hash computed here).
      const occurredAt = new Date().toISOString();
      const outcome = proposal ? "approval_required" : "not_found";
      const data = { transport: "anthropic", arguments: call.input };
      const eventId = randomUUID();
      const leaf = createHash("sha256")
        .update(Buffer.from([0]))
        .update(canonicalize({ v: 3, id: eventId, tenantId: key.tenantId, occurredAt, traceId, action: "tool:prepare_refund", outcome, data })!)
        .digest("hex");
      await client.query(
        `WITH e AS (
           INSERT INTO "AuditEvent" (id, "tenantId", "occurredAt", "traceId", "actorType", "actorId", "authMethod", action, outcome, "proposalId", "proposalHash", channel, "endUser", data, fingerprints, hash)
           VALUES ($1::uuid, $2::uuid, ($3::timestamptz AT TIME ZONE 'UTC'), $4, 'agent', $5, 'agent_key', 'tool:prepare_refund', $6, $7, $8, $9, $10, $11::jsonb, '{}', $12)
           RETURNING "pos")
         INSERT INTO "AuditPending" ("eventId", "logId", "pos", "leafHash", "occurredAt") SELECT $1::uuid, $2::uuid, e."pos", $12, ($3::timestamptz AT TIME ZONE 'UTC') FROM e`,
        [
          eventId,
          key.tenantId,
          occurredAt,
          traceId,
          key.id,
          outcome,
          proposal?.id ?? null,
          proposal?.hash ?? null,
          key.channel,
          sha(customer).slice(0, 16),
          JSON.stringify(data),
          leaf,
        ],
      );
      await client.query("COMMIT");
      if (!proposal) return send("not_found", { error: { message: "no such order" } });
      return send("approval_required", {
        result: { proposal_id: proposal.id, hash: proposal.hash, amount: { minor: proposal.amountMinor, currency: proposal.currency } },
      });
    } catch (e) {
      await client.query("ROLLBACK").catch(() => undefined);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          type: "tool_result",
          tool_use_id: "unknown",
          is_error: true,
          content: JSON.stringify({ code: "internal_error", error: { message: String((e as Error).message) }, traceId }),
        }),
      );
    } finally {
      client.release();
    }
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end('{"type":"tool_result","tool_use_id":"unknown","is_error":true,"content":"{\\"code\\":\\"internal_error\\"}"}');
    });
  };
}

// ---- data ----------------------------------------------------------------------------------------

function benchOrder(i: number): string {
  return `BENCH-${String(i).padStart(6, "0")}`;
}

/** 2 × ORDERS_PER_SERVER extra card orders for Ana (tienda-es), so every request prepares a new proposal. */
async function addBenchOrders(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const tenantId = demoUuid(`tenant:${TENANT}`);
  const cid = customerId(TENANT, "ana");
  await c.query(
    `INSERT INTO "Order" (id, "tenantId", number, "customerId", currency, "totalMinor", "capturedMinor", status, items, "placedAt", "updatedAt")
     SELECT gen_random_uuid(), $1::uuid, 'BENCH-' || lpad(i::text, 6, '0'), $2, 'EUR', 1000 + i, 1000 + i, 'paid', '[]'::jsonb, now(), now()
       FROM generate_series(0, $3 - 1) AS i`,
    [tenantId, cid, ORDERS_PER_SERVER * 2],
  );
  await c.query(
    `INSERT INTO "Payment" (id, "tenantId", "orderId", method, "providerPaymentRef", "holderName", display, "amountMinor", currency)
     SELECT gen_random_uuid(), o."tenantId", o.id, 'card', 'pi_bench_' || o.number, 'Ana García', 'Visa •••• 4242', o."capturedMinor", 'EUR'
       FROM "Order" o WHERE o."tenantId" = $1::uuid AND o.number LIKE 'BENCH-%'`,
    [tenantId],
  );
  await c.end();
}
