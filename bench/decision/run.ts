// npm run bench:decision — from a reviewer's approval to the waiting agent knowing it: an agent's
// get_refund_status with wait_seconds is held by the real route handler; the reviewer approves through the real
// use case; the figure is approve-call start → the waiting call's answer (an upper bound: it includes the
// approval's own transaction). Then the webhook path: the channel's decision webhook points at a local listener,
// a graphile-worker runs the delivery task in this process, and the figure is approve-call start → the listener
// has the `proposal.approved` webhook, its signature verified with the `standardwebhooks` package. Beside both,
// measured in the same run, a bare LISTEN/NOTIFY round trip on the same PostgreSQL. A script, not a test: it
// asserts nothing about time. Throw-away embedded PostgreSQL.
import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Logger, run as runWorker, runMigrations as installJobQueue } from "graphile-worker";
import { Webhook } from "standardwebhooks";
import { openPgClient } from "../../lib/server/db/pg-client";
import { startEmbeddedPostgres } from "../../scripts/lib/embedded-postgres";
import { applyMigrations } from "../../scripts/lib/migrations";
import { agentKey, customerId, demoUuid, mintEndUserToken, seedDemo } from "../../scripts/lib/demo-data";
import { prismaFor } from "../../scripts/lib/prisma";
import { addBenchOrders, benchOrder, liftWindowBudgets, TENANT } from "../gateway/shared";

const N = Number(process.env.BENCH_DECISIONS ?? 40);

/** graphile-worker's own log lines (job started/completed) would bury the figures: warnings and errors only. */
const quietLogger = new Logger(() => (level, message) => {
  if (level === "error" || level === "warning") console.error(`[worker] ${message}`);
});

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
const line = (name: string, xs: number[]) =>
  console.log(
    `${name.padEnd(44)} p50 ${pct(xs, 50).toFixed(1).padStart(7)} ms   p95 ${pct(xs, 95).toFixed(1).padStart(7)} ms   (n=${xs.length})`,
  );

const server = await startEmbeddedPostgres({
  dataDir: mkdtempSync(join(tmpdir(), "bench-decision-")),
  ephemeral: true,
  database: "bench",
});
try {
  await applyMigrations(server.url);
  await installJobQueue({ connectionString: server.url });
  const prisma = prismaFor(server.url);
  await seedDemo(prisma);
  await prisma.$disconnect();
  await addBenchOrders(server.url, N, "DEC");
  await addBenchOrders(server.url, N, "DWH");
  await liftWindowBudgets(server.url);

  // Baseline: a bare NOTIFY from one connection to a LISTENing one.
  const listener = await openPgClient(server.url);
  const notifier = await openPgClient(server.url);
  await listener.query("LISTEN bench_decision");
  const bare: number[] = [];
  for (let i = 0; i < N; i++) {
    const got = new Promise<void>((resolve) => listener.once("notification", () => resolve()));
    const t0 = performance.now();
    await notifier.query(`NOTIFY bench_decision, '${i}'`);
    await got;
    bare.push(performance.now() - t0);
  }
  await listener.end();
  await notifier.end();

  process.env.DATABASE_URL = server.url;
  process.env.APP_MODE = "demo";
  process.env.PAYMENT_PROVIDER_LIVE_READS = "0"; // no payment provider runs in this bench: read the stored rows
  const { POST } = await import("../../app/api/agent/tool-calls/route");
  const { approveProposal } = await import("../../lib/server/proposals/approve-proposal");
  const { proposalWaiterCount, stopProposalChanges } = await import("../../lib/server/realtime/proposal-changes");
  const { db } = await import("../../lib/server/db/client");
  const { actorFor, staffOf } = await import("../../tests/support/actors");
  const reviewer = await actorFor(staffOf(TENANT, "reviewer").email);
  const token = await mintEndUserToken(TENANT, "web_support", customerId(TENANT, "ana"));
  const call = async (input: unknown, n: number) => {
    const res = await POST(
      new Request("http://localhost/api/agent/tool-calls", {
        method: "POST",
        headers: {
          authorization: `Bearer ${agentKey(TENANT, "web_support")}`,
          "x-end-user-token": token,
          "content-type": "application/json",
          "x-trace-id": `bench-decision-${n}`,
        },
        body: JSON.stringify({ type: "tool_use", id: `b_${n}`, ...(input as object) }),
      }),
    );
    return JSON.parse(((await res.json()) as { content: string }).content) as {
      code: string;
      result?: { proposal_id?: string };
    };
  };

  const waited: number[] = [];
  const approving: number[] = [];
  for (let i = 0; i < N; i++) {
    const prepared = await call(
      { name: "prepare_refund", input: { order_id: benchOrder(i, "DEC"), reason: "damaged_item" } },
      i,
    );
    const id = prepared.result!.proposal_id!;
    const hash = (await db().proposal.findUniqueOrThrow({ where: { id } })).hash;
    let answeredAt = 0;
    const registered = proposalWaiterCount();
    const waiting = call({ name: "get_refund_status", input: { proposal_id: id, wait_seconds: 25 } }, i).then((r) => {
      answeredAt = performance.now();
      return r;
    });
    // Approve only once the wait is registered and has read its starting state (the read follows the
    // registration; 300 ms leaves room for it on a loaded machine): a wait whose first read already sees the
    // approval starts from "approved" and (no worker runs here) would answer at its 25 s end, measuring nothing.
    const until = performance.now() + 5_000;
    while (proposalWaiterCount() <= registered && performance.now() < until) await new Promise((r) => setTimeout(r, 2));
    await new Promise((r) => setTimeout(r, 300));
    const t0 = performance.now();
    await approveProposal(reviewer, { proposalId: id, hash });
    approving.push(performance.now() - t0);
    const answer = await waiting;
    if (answer.code !== "result_pending") throw new Error(`unexpected ${answer.code}`);
    waited.push(answeredAt - t0);
  }

  // The webhook path. The channel's decision webhook points at a local listener (demo mode allows a loopback
  // URL); a graphile-worker in this process runs only the delivery task (the approvals' execution jobs stay
  // queued: no payment provider runs here). The approval's commit fires the trigger that inserts the delivery
  // and its job; graphile-worker is woken by its own LISTEN/NOTIFY, signs and POSTs.
  const { setDecisionWebhook } = await import("../../lib/server/admin/set-decision-webhook");
  const { tasks } = await import("../../lib/server/jobs/tasks");
  const admin = await actorFor(staffOf(TENANT, "admin").email);
  const arrived = new Map<string, (at: number) => void>();
  let unverified = 0;
  let verifier: Webhook | null = null;
  const hook = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = performance.now();
      const body = Buffer.concat(chunks).toString("utf8");
      try {
        const event = verifier!.verify(body, req.headers as Record<string, string>) as {
          type: string;
          data: { proposal_id: string };
        };
        if (event.type === "proposal.approved") arrived.get(event.data.proposal_id)?.(at);
      } catch {
        unverified++;
      }
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
  const channelId = demoUuid(`channel:${TENANT}:web_support`);
  const { secret } = await setDecisionWebhook(admin, channelId, {
    url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/decisions`,
  });
  verifier = new Webhook(secret!);
  const worker = await runWorker({
    connectionString: server.url,
    taskList: { deliver_decision_webhook: tasks.deliver_decision_webhook },
    concurrency: 2,
    noHandleSignals: true,
    logger: quietLogger,
  });
  const webhook: number[] = [];
  for (let i = 0; i < N; i++) {
    const prepared = await call(
      { name: "prepare_refund", input: { order_id: benchOrder(i, "DWH"), reason: "damaged_item" } },
      N + i,
    );
    const id = prepared.result!.proposal_id!;
    const hash = (await db().proposal.findUniqueOrThrow({ where: { id } })).hash;
    const received = new Promise<number>((resolve, reject) => {
      arrived.set(id, resolve);
      setTimeout(() => reject(new Error(`no proposal.approved webhook for ${id} within 30 s`)), 30_000).unref();
    });
    const t0 = performance.now();
    await approveProposal(reviewer, { proposalId: id, hash });
    webhook.push((await received) - t0);
    arrived.delete(id);
  }
  await worker.stop();
  await new Promise<void>((resolve) => hook.close(() => resolve()));
  await stopProposalChanges();
  await db().$disconnect();

  console.log(`bench:decision — ${N} decisions per path, figures taken on a shared, loaded machine`);
  line("bare LISTEN/NOTIFY round trip (baseline)", bare);
  line("the approve use case alone (its transaction)", approving);
  line("approval → waiting get_refund_status answers", waited);
  line("approval → signed proposal.approved webhook", webhook);
  // Kept in the figures, not dropped: an answer only at the wait's end is a lost wake-up (or a wait that began late).
  console.log(
    `answered only at the 25 s end of the wait: ${waited.filter((ms) => ms > 20_000).length} of ${waited.length}`,
  );
  console.log(`webhooks refused by the signature check: ${unverified}`);
  for (const [name, xs] of [
    ["waiting call", waited],
    ["webhook", webhook],
  ] as const)
    console.log(
      `${name}: ratio p95 ${(pct(xs, 95) / pct(bare, 95)).toFixed(1)}×   goal p95 ≤ 500 ms: ${pct(xs, 95) <= 500 ? "met" : "NOT met"}`,
    );
} finally {
  await server.stop();
}
process.exit(0);
