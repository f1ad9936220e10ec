// The audit sequencer against the real database: one leader per log (advisory lock), failover when the
// leader's process is killed, every event integrated exactly once into a tree that verifies, and events
// visible in search (marked pending) before they are integrated.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { startSequencer, integratePending, type Sequencer } from "@/lib/server/audit/sequencer";
import { verifyAuditChain } from "@/lib/server/audit/verify-chain";
import { searchAuditEvents } from "@/lib/server/audit/search-audit-events";
import { ES, ana, anthropicCall, freshTrace, headersFor, send, tokenFor } from "./gateway-support";
import { actorOf } from "./audit-support";

const running: Sequencer[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

const tenantIdOf = async (slug: string) => (await db().tenant.findUniqueOrThrow({ where: { slug } })).id;
/** Polls until `done` holds (a liveness bound, not a timing assertion: the sequencer ticks every 50 ms). */
async function eventually(done: () => Promise<boolean>, what: string, ms = 15_000) {
  for (const until = Date.now() + ms; Date.now() < until;) {
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
async function calls(n: number) {
  const token = await tokenFor(ES, ana);
  await Promise.all(
    Array.from({ length: n }, () =>
      send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ token, trace: freshTrace() })),
    ),
  );
}
const pendingOf = (logId: string) => db().auditPending.count({ where: { logId } });

describe("audit sequencer", () => {
  it("unintegrated events show in search as pending; the sequencer then gives them leaves", async () => {
    const trace = freshTrace();
    const token = await tokenFor(ES, ana);
    await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ token, trace }));
    const auditor = await actorOf(ES, "auditor");
    const before = await searchAuditEvents(auditor, { traceId: trace });
    expect(before.events).toHaveLength(1);
    expect(before.events[0]!.leafIndex).toBeNull();
    await integratePending();
    const after = await searchAuditEvents(auditor, { traceId: trace });
    expect(after.events[0]!.leafIndex).toEqual(expect.any(Number));
  });

  it("two sequencers: each log has one leader; everything is integrated once and verifies", async () => {
    const es = await tenantIdOf(ES);
    const a = startSequencer({ intervalMs: 50 });
    const b = startSequencer({ intervalMs: 50 });
    running.push(a, b);
    await calls(20);
    await eventually(async () => (await pendingOf(es)) === 0, "integration");
    await calls(20);
    await eventually(async () => (await pendingOf(es)) === 0, "integration");
    const leaders = [a, b].filter((s) => s.leading().includes(es));
    expect(leaders).toHaveLength(1);
    expect(a.leading().filter((l) => b.leading().includes(l))).toEqual([]);
    const events = await db().auditEvent.count({ where: { tenantId: es } });
    expect(await db().auditLeaf.count({ where: { logId: es } })).toBe(events);
    expect(await verifyAuditChain(es)).toMatchObject({ ok: true, events, pending: 0 });
  });

  it("when the leader's process is killed (SIGKILL), another sequencer takes the log over", async () => {
    const es = await tenantIdOf(ES);
    const child = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "scripts/audit-sequencer.ts"],
      {
        env: { ...process.env, AUDIT_SEQUENCER_INTERVAL_MS: "50" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    children.push(child);
    const led = new Promise<void>((resolve) =>
      createInterface({ input: child.stdout }).on("line", (l) => l === `leading ${es}` && resolve()),
    );
    await calls(5);
    await led;
    await eventually(async () => (await pendingOf(es)) === 0, "the child to integrate");

    // A second sequencer here cannot lead while the child lives.
    const here = startSequencer({ intervalMs: 50 });
    running.push(here);
    await calls(5);
    await eventually(async () => (await pendingOf(es)) === 0, "the child to integrate more");
    expect(here.leading()).not.toContain(es);

    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    await calls(5);
    await eventually(async () => here.leading().includes(es) && (await pendingOf(es)) === 0, "failover");
    const events = await db().auditEvent.count({ where: { tenantId: es } });
    expect(await verifyAuditChain(es)).toMatchObject({ ok: true, events, pending: 0 });
  });
});
