// npm run bench:execution — approve → provider-effect latency of a refund, with a zero-latency sandbox.
//
// Throw-away embedded PostgreSQL (migrations, demo seed, graphile-worker's schema), the sandbox provider as
// its own process, a job worker in this process (runWorker, as `npm start` runs it). For each proposal
// (prepared by the real gateway handler), t0 is the call to approveProposal; the "provider effect" is the
// commit of the refund in the sandbox's database, observed through a NOTIFY trigger the bench installs
// there (delivered on commit, no polling); "recorded" is the Execution row turning `succeeded` (same way).
// Baseline measured in the same run: the raw provider call alone (the adapter's createRefund, fresh key).
// A script, not a test: it prints figures, asserts nothing about time.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type pg from "pg";
import { openPgClient } from "../../lib/server/db/pg-client";
import { startEmbeddedPostgres, findFreePort } from "../../scripts/lib/embedded-postgres";
import { applyMigrations } from "../../scripts/lib/migrations";
import { agentKey, customerId, demoTenants, mintEndUserToken, seedDemo } from "../../scripts/lib/demo-data";
import { prismaFor } from "../../scripts/lib/prisma";
import { createPaidOrder, staffActor } from "../../scripts/lib/fixtures";

const N = Number(process.env.BENCH_APPROVALS ?? 40);
const WARMUP = 5;
const TENANT = "tienda-es";

const hardStop = setTimeout(() => {
  console.error("bench: time budget (4 minutes) exceeded, stopping");
  process.exit(3);
}, 240_000);
hardStop.unref();

const server = await startEmbeddedPostgres({
  dataDir: mkdtempSync(join(tmpdir(), "bench-exec-pg-")),
  ephemeral: true,
  database: "bench",
});
let sandbox: ReturnType<typeof spawn> | null = null;
try {
  await applyMigrations(server.url);
  const prisma = prismaFor(server.url);
  await seedDemo(prisma);
  await prisma.$disconnect();

  // The sandbox provider: its own process and database on the same server, no faults, no latency.
  const apiKey = `sk_test_${randomUUID().replace(/-/g, "")}`;
  const controlToken = `ctl_${randomUUID()}`;
  const port = await findFreePort();
  const sandboxDb = server.url.replace(/\/bench$/, "/bench_sandbox");
  sandbox = spawn(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      "scripts/provider-sandbox.ts",
      "--port",
      String(port),
      "--database-url",
      sandboxDb,
      "--api-key",
      apiKey,
      "--control-token",
      controlToken,
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, DATABASE_URL: "" },
    },
  );
  await new Promise<void>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`sandbox did not start:\n${out}`)), 60_000);
    const on = (c: Buffer) => {
      out += c.toString();
      if (out.includes("listening on")) {
        clearTimeout(timer);
        resolve();
      }
    };
    sandbox!.stdout!.on("data", on);
    sandbox!.stderr!.on("data", on);
  });
  const sandboxUrl = `http://127.0.0.1:${port}`;

  process.env.DATABASE_URL = server.url;
  process.env.APP_MODE = "demo";
  process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? "warn";
  process.env.PAYMENT_PROVIDER_URL = sandboxUrl;
  process.env.PAYMENT_PROVIDER_API_KEY = apiKey;
  const { prepareJobQueue } = await import("../../lib/server/jobs/schema");
  await prepareJobQueue(server.url);
  const { sandboxControl } = await import("../../provider-sandbox/control-client");
  const { getPaymentProvider } = await import("../../lib/server/payments/get-payment-provider");
  const { approveProposal } = await import("../../lib/server/proposals/approve-proposal");
  const { runWorker } = await import("../../lib/server/jobs/run-worker");
  const { db } = await import("../../lib/server/db/client");
  const { POST: toolCalls } = await import("../../app/api/agent/tool-calls/route");
  const control = sandboxControl(sandboxUrl, controlToken);

  // Effects observed on commit: NOTIFY from triggers in this throw-away run's databases.
  const sandboxPg = await openPgClient(sandboxDb);
  await sandboxPg.query(`CREATE OR REPLACE FUNCTION bench_refund_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_notify('bench_refund', NEW.payment_intent); RETURN NEW; END $$;
    CREATE TRIGGER bench_refund AFTER INSERT ON refunds FOR EACH ROW EXECUTE FUNCTION bench_refund_notify();`);
  const appPg = await openPgClient(server.url);
  await appPg.query(`CREATE OR REPLACE FUNCTION bench_execution_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_notify('bench_execution', NEW."proposalId"::text); RETURN NEW; END $$;
    CREATE TRIGGER bench_execution AFTER UPDATE OF status ON "Execution" FOR EACH ROW WHEN (NEW.status = 'succeeded') EXECUTE FUNCTION bench_execution_notify();`);
  const waiters = new Map<string, (t: number) => void>();
  const seen = new Map<string, number>();
  const onNotify = (msg: pg.Notification) => {
    const t = performance.now();
    const key = `${msg.channel}:${msg.payload}`;
    const w = waiters.get(key);
    if (w) w(t);
    else seen.set(key, t);
  };
  sandboxPg.on("notification", onNotify);
  appPg.on("notification", onNotify);
  await sandboxPg.query("LISTEN bench_refund");
  await appPg.query("LISTEN bench_execution");
  const when = (key: string) =>
    new Promise<number>((resolve, reject) => {
      const early = seen.get(key);
      if (early !== undefined) return resolve(early);
      const timer = setTimeout(() => reject(new Error(`no ${key} within 30 s`)), 30_000);
      waiters.set(key, (t) => {
        clearTimeout(timer);
        resolve(t);
      });
    });

  // Proposals prepared by the real gateway handler, each on its own order and payment intent.
  const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: TENANT } });
  const ana = customerId(TENANT, "ana");
  const token = await mintEndUserToken(TENANT, "web_support", ana);
  const reviewerEmail = demoTenants
    .find((t) => t.slug === TENANT)!
    .staff.find((s) => s.roles.includes("reviewer"))!.email;
  const actor = { ...(await staffActor(db(), reviewerEmail)), stepUpMinutes: 60 };
  async function prepare(i: number) {
    const pi = `pi_bench_${i}_${randomUUID().slice(0, 8)}`;
    const amount = 1_000 + i;
    await control.createPaymentIntent({ id: pi, amount, currency: "eur" });
    const { number } = await createPaidOrder(db(), tenant, {
      customerId: ana,
      amountMinor: amount,
      prefix: `BX-${i}`,
      paymentRef: pi,
      holderName: "Ana García",
    });
    const res = await toolCalls(
      new Request("http://localhost/api/agent/tool-calls", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${agentKey(TENANT, "web_support")}`,
          "x-end-user-token": token,
        },
        body: JSON.stringify({
          type: "tool_use",
          id: `toolu_${i}`,
          name: "prepare_refund",
          input: { order_id: number, reason: "damaged_item" },
        }),
      }),
    );
    const content = JSON.parse((await res.json()).content as string) as {
      code: string;
      result: { proposal_id: string };
    };
    if (content.code !== "approval_required") throw new Error(`prepare_refund answered ${content.code}`);
    const p = await db().proposal.findUniqueOrThrow({ where: { id: content.result.proposal_id } });
    return { id: p.id, hash: p.hash, pi, amount };
  }

  const quantiles = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
    return { p50: q(0.5), p95: q(0.95), max: s[s.length - 1]! };
  };

  // Baseline: the raw provider call alone, through the same adapter, one at a time.
  const provider = getPaymentProvider();
  const raw: number[] = [];
  for (let i = 0; i < N + WARMUP; i++) {
    const pi = `pi_raw_${i}_${randomUUID().slice(0, 8)}`;
    await control.createPaymentIntent({ id: pi, amount: 500, currency: "eur" });
    const t0 = performance.now();
    const answer = await provider.createRefund({
      paymentIntent: pi,
      amountMinor: 500,
      currency: "EUR",
      idempotencyKey: `raw-${randomUUID()}`,
      metadata: { proposalId: `raw-${i}`, tenantId: "bench" },
    });
    const t1 = performance.now();
    if (answer.outcome !== "succeeded") throw new Error(`raw call: ${answer.outcome}`);
    if (i >= WARMUP) raw.push(t1 - t0);
  }

  console.log(`preparing ${N + WARMUP} proposals through the gateway…`);
  const proposals = [];
  for (let i = 0; i < N + WARMUP; i++) proposals.push(await prepare(i));

  const runner = await runWorker({ concurrency: 4, noCron: true });
  const effect: number[] = [];
  const recorded: number[] = [];
  const approveCall: number[] = [];
  for (const [i, p] of proposals.entries()) {
    const effectAt = when(`bench_refund:${p.pi}`);
    const recordedAt = when(`bench_execution:${p.id}`);
    const t0 = performance.now();
    const r = await approveProposal(actor, { proposalId: p.id, hash: p.hash });
    const t1 = performance.now();
    if (r.status !== "approved") throw new Error(`approval: ${r.status}`);
    const [te, tr] = await Promise.all([effectAt, recordedAt]);
    if (i >= WARMUP) {
      approveCall.push(t1 - t0);
      effect.push(te - t0);
      recorded.push(tr - t0);
    }
  }
  await runner.stop();
  const counters = await control.counters();
  const dupes = proposals.filter((p) => (counters.paymentIntents[p.pi]?.refunds ?? 0) !== 1).length;

  const fmt = (label: string, xs: number[]) => {
    const q = quantiles(xs);
    return `${label.padEnd(58)} p50 ${q.p50.toFixed(1).padStart(7)} ms   p95 ${q.p95.toFixed(1).padStart(7)} ms   max ${q.max.toFixed(1).padStart(7)} ms`;
  };
  const b = quantiles(raw);
  const e = quantiles(effect);
  const rec = quantiles(recorded);
  console.log(
    `\nexecution latency, ${N} approvals one at a time (after ${WARMUP} warm-up), zero-latency sandbox, worker concurrency 4`,
  );
  console.log(fmt("baseline: raw provider call alone (adapter createRefund)", raw));
  console.log(fmt("approveProposal call (approval + enqueue, committed)", approveCall));
  console.log(fmt("approve → provider effect (refund committed at sandbox)", effect));
  console.log(fmt("approve → execution recorded `succeeded`", recorded));
  console.log(
    `ratio approve→effect / raw call: p50 ${(e.p50 / b.p50).toFixed(1)}×   p95 ${(e.p95 / b.p95).toFixed(1)}×`,
  );
  console.log(
    `ratio approve→recorded / raw call: p50 ${(rec.p50 / b.p50).toFixed(1)}×   p95 ${(rec.p95 / b.p95).toFixed(1)}×`,
  );
  console.log(`provider refunds per proposal ≠ 1: ${dupes} of ${proposals.length}`);

  await sandboxPg.end();
  await appPg.end();
  await db().$disconnect();
} finally {
  if (sandbox && sandbox.exitCode === null) {
    const exited = new Promise((r) => sandbox!.once("exit", r));
    sandbox.kill("SIGTERM");
    await exited;
  }
  await server.stop();
}
process.exit(0);
