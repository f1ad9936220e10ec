// GET /api/metrics after a real flow (agent → approval → execution at the sandbox provider, and a rejection):
// the counters moved, the database gauges say what the database holds, the exposition passes
// `promtool check metrics`, the alert rules pass `promtool check rules` and their unit tests; the guard over
// real sockets (loopback vs this machine's own non-loopback address, forged headers, the token).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as metricsGET } from "@/app/api/metrics/route";
import { integratePending } from "@/lib/server/audit/sequencer";
import { db } from "@/lib/server/db/client";
import { enqueueJob } from "@/lib/server/jobs/enqueue";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { rejectProposal } from "@/lib/server/proposals/reject-proposal";
import { traceDecision } from "@/lib/server/telemetry/decision-span";
import { stampPeerAddress } from "@/lib/server/telemetry/peer-address";
import { actorFor, staffOf } from "../support/actors";
import { runJobsOnce } from "../support/run-jobs-once";
import { startSandboxProvider, type SandboxProvider } from "../support/sandbox-provider";
import { ES, anthropicCall, send, webKey } from "./gateway-support";
import { prepareThroughGateway, sandboxCardOrder } from "./proposal-support";

const PROMTOOL = "/usr/bin/promtool";
const TOKEN = "metrics-token-for-the-test-0123456789";
let sandbox: SandboxProvider;

beforeAll(async () => {
  sandbox = await startSandboxProvider();
  process.env.METRICS_TOKEN = TOKEN;
});
afterAll(async () => {
  delete process.env.METRICS_TOKEN;
  await sandbox?.stop();
});

async function scrape(): Promise<string> {
  const res = await metricsGET(
    new Request("http://localhost/api/metrics", { headers: { authorization: `Bearer ${TOKEN}` } }),
  );
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/plain");
  return res.text();
}

/** One sample's value (0 when the series is absent): `name{a="x",b="y"}`, labels in the exposition's order. */
function sample(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** promtool must be there (CI installs Debian's prometheus package): a missing binary fails, never skips. */
function promtool(args: string[], input?: string): { status: number | null; out: string } {
  const r = spawnSync(PROMTOOL, args, { input, encoding: "utf8", cwd: process.cwd() });
  if (r.error) throw new Error(`promtool could not run (${PROMTOOL}): ${r.error.message}`);
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe("/api/metrics after a flow", () => {
  it("counts the tool calls, the decisions, the wait and the execution; gauges read the database; promtool accepts it", async () => {
    const before = await scrape();
    const reviewer = await actorFor(staffOf(ES, "reviewer").email);

    const order = await sandboxCardOrder(sandbox.control, 1200, "METRICS");
    const approved = await prepareThroughGateway(order.number);
    const rejectedOrder = await sandboxCardOrder(sandbox.control, 800, "METRICS");
    const rejected = await prepareThroughGateway(rejectedOrder.number);
    await send(anthropicCall("search_invoices", { q: "x" }), { authorization: `Bearer ${webKey()}` });
    await traceDecision("approve", reviewer, approved.id, () =>
      approveProposal(reviewer, { proposalId: approved.id, hash: approved.hash }),
    );
    await traceDecision("reject", reviewer, rejected.id, () =>
      rejectProposal(reviewer, { proposalId: rejected.id, hash: rejected.hash, customerMessage: "Not eligible." }),
    );
    await runJobsOnce();
    expect((await db().execution.findUniqueOrThrow({ where: { proposalId: approved.id } })).status).toBe("succeeded");

    const after = await scrape();
    const moved = (series: string) => sample(after, series) - sample(before, series);
    expect(moved('approvalgw_tool_calls_total{tool="prepare_refund",code="approval_required"}')).toBe(2);
    // An invented tool name is counted, under "unknown" (caller text never becomes a label).
    expect(moved('approvalgw_tool_calls_total{tool="unknown",code="unknown_tool"}')).toBe(1);
    expect(after).not.toContain("search_invoices");
    expect(moved('approvalgw_proposals_total{kind="refund",outcome="prepared"}')).toBe(2);
    expect(moved('approvalgw_proposals_total{kind="refund",outcome="approved"}')).toBe(1);
    expect(moved('approvalgw_proposals_total{kind="refund",outcome="rejected"}')).toBe(1);
    expect(moved("approvalgw_approval_wait_seconds_count")).toBe(2);
    expect(moved('approvalgw_executions_total{kind="refund",result="succeeded"}')).toBe(1);
    expect(moved('approvalgw_provider_calls_total{operation="create_refund",outcome="succeeded"}')).toBe(1);
    // No ids or e-mails as labels.
    for (const id of [approved.id, rejected.id, reviewer.userId, reviewer.email]) expect(after).not.toContain(id);

    const check = promtool(["check", "metrics"], after);
    expect(check.out).toBe("");
    expect(check.status).toBe(0);
  });

  it("the gauges: executions in doubt and the oldest one's age, sequencer lag and checkpoint age, jobs due per task", async () => {
    await integratePending();
    await runJobsOnce();
    let text = await scrape();
    expect(sample(text, "approvalgw_audit_sequencer_lag_seconds")).toBe(0);
    expect(sample(text, "approvalgw_audit_checkpoint_age_seconds")).toBe(0);
    expect(sample(text, 'approvalgw_jobs_pending{task="expire_proposals"}')).toBe(0);
    const inDoubtBefore = sample(text, "approvalgw_executions_in_doubt");

    // An execution whose outcome is unknown, last sent ten minutes ago; events waiting for the sequencer for
    // two minutes; a job due now.
    const order = await sandboxCardOrder(sandbox.control, 900, "GAUGE");
    const p = await prepareThroughGateway(order.number);
    const reviewer = await actorFor(staffOf(ES, "reviewer").email);
    await approveProposal(reviewer, { proposalId: p.id, hash: p.hash });
    // No execution job: the test plays the worker whose send ended in doubt.
    await sql`DELETE FROM graphile_worker._private_jobs WHERE key = ${`execute:${p.id}`}`.execute(sqlPool());
    await db().execution.create({
      data: {
        tenantId: p.tenantId,
        proposalId: p.id,
        idempotencyKey: `refund-${p.id}`,
        status: "unknown",
        attempts: 1,
        lastAttemptAt: new Date(Date.now() - 600_000),
      },
    });
    await sql`UPDATE "AuditPending" SET "occurredAt" = (now() AT TIME ZONE 'UTC') - interval '120 seconds'`.execute(
      sqlPool(),
    );
    await enqueueJob(sqlPool(), "expire_proposals", {});

    text = await scrape();
    expect(sample(text, "approvalgw_executions_in_doubt")).toBe(inDoubtBefore + 1);
    expect(sample(text, "approvalgw_executions_in_doubt_oldest_seconds")).toBeGreaterThanOrEqual(600);
    expect(sample(text, "approvalgw_executions_in_doubt_oldest_seconds")).toBeLessThan(700);
    expect(sample(text, "approvalgw_audit_sequencer_lag_seconds")).toBeGreaterThanOrEqual(120);
    // The log's newest checkpoint was signed by the integratePending above, seconds ago.
    expect(sample(text, "approvalgw_audit_checkpoint_age_seconds")).toBeGreaterThan(0);
    expect(sample(text, "approvalgw_audit_checkpoint_age_seconds")).toBeLessThan(60);
    expect(sample(text, 'approvalgw_jobs_pending{task="expire_proposals"}')).toBe(1);

    await integratePending();
    text = await scrape();
    expect(sample(text, "approvalgw_audit_sequencer_lag_seconds")).toBe(0);
  });
});

describe("alert rules", () => {
  it("promtool check rules and promtool test rules pass on ops/prometheus", () => {
    const check = promtool(["check", "rules", "ops/prometheus/approvalgw-alerts.yml"]);
    expect(check.out).toContain("SUCCESS: 5 rules found");
    expect(check.status).toBe(0);
    const test = promtool(["test", "rules", "ops/prometheus/approvalgw-alerts.test.yml"]);
    expect(test.out).toContain("SUCCESS");
    expect(test.status).toBe(0);
  });
});

describe("the Grafana dashboard", () => {
  it("every panel's query is valid PromQL (promtool, as recording rules) over metrics the app exposes", async () => {
    const dashboard = JSON.parse(readFileSync("ops/grafana/approvalgw-dashboard.json", "utf8")) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr.replaceAll("$__rate_interval", "5m")));
    expect(exprs.length).toBeGreaterThanOrEqual(10);
    const dir = mkdtempSync(join(tmpdir(), "dashboard-"));
    const rules = {
      groups: [{ name: "dashboard", rules: exprs.map((expr, i) => ({ record: `dashboard:panel_${i}`, expr })) }],
    };
    writeFileSync(join(dir, "rules.yml"), JSON.stringify(rules));
    const check = promtool(["check", "rules", join(dir, "rules.yml")]);
    expect(check.out).toContain(`SUCCESS: ${exprs.length} rules found`);
    const exposed = await scrape();
    for (const name of new Set(exprs.flatMap((e) => e.match(/approvalgw_[a-z_]+/g) ?? []))) {
      expect(exposed, name).toMatch(new RegExp(`^# TYPE ${name.replace(/_(bucket|count|sum)$/, "")} `, "m"));
    }
  });
});

describe("the guard, over real sockets", () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    stampPeerAddress();
    server = createServer((req, res) => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      void metricsGET(new Request("http://localhost/api/metrics", { headers })).then(async (r) =>
        res.writeHead(r.status).end(await r.text()),
      );
    });
    await new Promise<void>((r) => server.listen(0, "0.0.0.0", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const get = async (host: string, headers: Record<string, string> = {}) =>
    (await fetch(`http://${host}:${port}/api/metrics`, { headers })).status;
  // This machine's own non-loopback address: a connection to it comes from it, not from 127.0.0.1.
  const external = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === "IPv4" && !a.internal)?.address;

  it("without a token: loopback yes; a non-loopback peer no, whatever X-Forwarded-For or the peer header it forges", async () => {
    delete process.env.METRICS_TOKEN;
    try {
      expect(await get("127.0.0.1")).toBe(200);
      expect(external, "a non-loopback IPv4 address on this machine").toBeTruthy();
      expect(await get(external!)).toBe(403);
      expect(
        await get(external!, {
          "x-forwarded-for": "127.0.0.1",
          "x-approvalgw-peer": "127.0.0.1",
          "x-real-ip": "127.0.0.1",
        }),
      ).toBe(403);
      // Behind a trusted proxy the client is the hop the proxy appended, whatever the client put before it.
      process.env.TRUST_PROXY = "1";
      expect(await get("127.0.0.1", { "x-forwarded-for": "127.0.0.1, 203.0.113.7" })).toBe(403);
      expect(await get("127.0.0.1", { "x-forwarded-for": "203.0.113.7, 127.0.0.1" })).toBe(200);
    } finally {
      delete process.env.TRUST_PROXY;
      process.env.METRICS_TOKEN = TOKEN;
    }
  });

  it("with METRICS_TOKEN: the exact bearer token from anywhere; none or another one is 401, loopback included", async () => {
    expect(await get(external!, { authorization: `Bearer ${TOKEN}` })).toBe(200);
    expect(await get("127.0.0.1")).toBe(401);
    expect(await get("127.0.0.1", { authorization: `Bearer ${TOKEN}x` })).toBe(401);
    expect(await get(external!, { authorization: `Bearer ${TOKEN.slice(0, -1)}` })).toBe(401);
  });
});
