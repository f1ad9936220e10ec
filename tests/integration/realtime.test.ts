// The realtime core (lib/server/realtime): PostgreSQL triggers announce every status change of a proposal
// and of its execution; each app instance holds ONE LISTEN connection and fans the changes out. Two
// listeners here stand for two instances: both see the same NOTIFY.
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { sqlPool, withPgTransaction } from "@/lib/server/db/pg";
import { pgClient } from "@/lib/server/db/pg-client";
import { sql } from "@/lib/server/db/sql";
import { DEFAULT_TRANSACTION } from "@/lib/server/db/transaction";
import { ChangeListener, type ProposalChangeEvent } from "@/lib/server/realtime/change-listener";
import { beginProposalWait, stopProposalChanges, waitForProposalChange } from "@/lib/server/realtime/proposal-changes";
import { preparedForFreshOrder } from "./proposal-support";
import { US } from "./gateway-support";

const url = () => process.env.DATABASE_URL!;
const opened: ChangeListener[] = [];
function instance(maxWaiters = 100): ChangeListener {
  const l = new ChangeListener({
    connect: () => pgClient(url()),
    maxWaiters,
    minBackoffMs: 20,
    maxBackoffMs: 100,
  });
  opened.push(l);
  return l;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((l) => l.close()));
});
afterAll(async () => {
  await stopProposalChanges();
});

const setStatus = (id: string, status: string) =>
  sql`UPDATE "Proposal" SET "status" = ${status}::"ProposalStatus" WHERE "id" = ${id}::uuid`.execute(sqlPool());

function collect(l: ChangeListener, tenantId: string): ProposalChangeEvent[] {
  const seen: ProposalChangeEvent[] = [];
  l.subscribe(tenantId, (e) => seen.push(e));
  return seen;
}
async function until(check: () => boolean, ms = 3_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("realtime proposal changes", () => {
  it("two instances both see a status change, with ids and status only (no personal data)", async () => {
    const p = (await preparedForFreshOrder(1500)).proposal;
    const a = instance();
    const b = instance();
    const seenA = collect(a, p.tenantId);
    const seenB = collect(b, p.tenantId);
    await Promise.all([a.ready(), b.ready()]);
    await setStatus(p.id, "rejected");
    await until(() => seenA.length > 0 && seenB.length > 0);
    const expected = { tenantId: p.tenantId, proposalId: p.id, status: "rejected", kind: "proposal" };
    expect(seenA).toEqual([expected]);
    expect(seenB).toEqual([expected]);
  });

  it("announces nothing for an update that keeps the status, nor for a rolled-back change", async () => {
    const p = (await preparedForFreshOrder(1600)).proposal;
    const a = instance();
    const seen = collect(a, p.tenantId);
    await a.ready();
    await db().proposal.update({ where: { id: p.id }, data: { reason: "other" } });
    await withPgTransaction(async (tx) => {
      await sql`UPDATE "Proposal" SET "status" = 'expired' WHERE "id" = ${p.id}::uuid`.execute(tx);
      throw new Error("roll back");
    }, DEFAULT_TRANSACTION).catch(() => undefined);
    // A later, committed change arrives: everything before it was sent already if it was sent at all.
    await setStatus(p.id, "rejected");
    await until(() => seen.length > 0);
    expect(seen.map((e) => ("status" in e ? e.status : e.kind))).toEqual(["rejected"]);
  });

  it("announces an execution's status under its proposal, kind execution", async () => {
    const p = (await preparedForFreshOrder(1700)).proposal;
    const a = instance();
    const seen = collect(a, p.tenantId);
    await a.ready();
    const e = await db().execution.create({
      data: { tenantId: p.tenantId, proposalId: p.id, idempotencyKey: `rt-${p.id}` },
    });
    await db().execution.update({ where: { id: e.id }, data: { status: "unknown" } });
    await until(() => seen.length >= 2);
    expect(seen).toEqual([
      { tenantId: p.tenantId, proposalId: p.id, status: "sending", kind: "execution" },
      { tenantId: p.tenantId, proposalId: p.id, status: "unknown", kind: "execution" },
    ]);
  });

  it("gives a subscriber only its own tenant's changes", async () => {
    const es = (await preparedForFreshOrder(1800)).proposal;
    const us = (
      await preparedForFreshOrder(1800, {
        tenant: US,
        customer: (await db().customer.findFirstOrThrow({ where: { tenant: { slug: US } } })).id,
      })
    ).proposal;
    const a = instance();
    const seenEs = collect(a, es.tenantId);
    await a.ready();
    await setStatus(us.id, "rejected");
    await setStatus(es.id, "rejected");
    await until(() => seenEs.length > 0);
    expect(seenEs.map((e) => ("proposalId" in e ? e.proposalId : null))).toEqual([es.id]);
  });

  it("a wait resolves on the change of its proposal, not on another one's, and times out otherwise", async () => {
    const p = (await preparedForFreshOrder(1900)).proposal;
    const other = (await preparedForFreshOrder(1901)).proposal;
    const a = instance();
    const waiting = a.waitForChange(p.tenantId, p.id, 5_000);
    await a.ready();
    await setStatus(other.id, "rejected");
    await setStatus(p.id, "expired");
    expect(await waiting).toEqual({
      outcome: "changed",
      change: { tenantId: p.tenantId, proposalId: p.id, status: "expired", kind: "proposal" },
    });
    expect(await a.waitForChange(p.tenantId, p.id, 50)).toEqual({ outcome: "timeout" });
    expect(a.waiterCount).toBe(0);
  });

  it("a wait registered before the read never misses a change committed between the read and the wait", async () => {
    const p = (await preparedForFreshOrder(1950)).proposal;
    const a = instance();
    const wait = await a.beginWait(p.tenantId, p.id, 5_000);
    if ("refused" in wait) throw new Error("refused");
    await setStatus(p.id, "rejected"); // after "the read", before awaiting the result
    expect(await wait.result).toMatchObject({ outcome: "changed", change: { status: "rejected" } });
  });

  it("bounds concurrent waits per instance: exactly at the bound the next one is refused at once", async () => {
    const p = (await preparedForFreshOrder(2000)).proposal;
    const a = instance(2);
    const w1 = await a.beginWait(p.tenantId, p.id, 5_000);
    const w2 = await a.beginWait(p.tenantId, p.id, 5_000);
    expect("refused" in w1 || "refused" in w2).toBe(false);
    expect(await a.beginWait(p.tenantId, p.id, 5_000)).toEqual({ refused: "too_many_waiters" });
    // One ends: there is room again.
    if (!("refused" in w1)) w1.cancel();
    const w3 = await a.beginWait(p.tenantId, p.id, 5_000);
    expect("refused" in w3).toBe(false);
    // Another instance has its own bound.
    const elsewhere = await instance(1).beginWait(p.tenantId, p.id, 5_000);
    expect("refused" in elsewhere).toBe(false);
  });

  it("an aborted wait ends at once and frees its place", async () => {
    const p = (await preparedForFreshOrder(2100)).proposal;
    const a = instance(1);
    const controller = new AbortController();
    const waiting = a.waitForChange(p.tenantId, p.id, 10_000, controller.signal);
    await a.ready();
    controller.abort();
    expect(await waiting).toEqual({ outcome: "aborted" });
    expect(a.waiterCount).toBe(0);
  });

  it("reconnects after its connection is killed, re-LISTENs, tells waiters and subscribers to re-read", async () => {
    const p = (await preparedForFreshOrder(2200)).proposal;
    const a = instance();
    const seen = collect(a, p.tenantId);
    const wait = await a.beginWait(p.tenantId, p.id, 10_000);
    if ("refused" in wait) throw new Error("refused");
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN proposal_changes' AND datname = current_database()`.execute(
      sqlPool(),
    );
    expect(await wait.result).toEqual({ outcome: "resync" });
    await until(() => seen.some((e) => e.kind === "resync"));
    await a.ready();
    await setStatus(p.id, "rejected");
    await until(() => seen.some((e) => "status" in e && e.status === "rejected"));
  });

  it("the process's listener (one per process) serves waits", async () => {
    const p = (await preparedForFreshOrder(2300)).proposal;
    const wait = await beginProposalWait(p.tenantId, p.id, 5_000);
    if ("refused" in wait) throw new Error("refused");
    await setStatus(p.id, "rejected");
    expect(await wait.result).toMatchObject({ outcome: "changed" });
    expect(await waitForProposalChange(p.tenantId, p.id, 20)).toEqual({ outcome: "timeout" });
  });
});
