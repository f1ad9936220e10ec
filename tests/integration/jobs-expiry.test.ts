// The expiry sweep (job `expire_proposals`): guarded UPDATE + one audit event per expired proposal,
// idempotent, exactly once under concurrent sweeps; and the job path through graphile-worker.
import { runJobsOnce } from "../support/run-jobs-once";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql, sqlOf } from "@/lib/server/db/sql";
import { enqueueJob } from "@/lib/server/jobs/enqueue";
import { expireProposals } from "@/lib/server/proposals/expire-proposals";
import { verifyAuditChain } from "@/lib/server/audit/verify-chain";
import { ES, US, makeProposal, minutesFromNow, tenantIdOf } from "./jobs-support";
import { transaction } from "@/lib/server/db/transaction";

const expireEvents = (proposalId: string) =>
  db().auditEvent.findMany({ where: { action: "proposal:expire", proposalId } });

describe("expire_proposals", () => {
  it("expires pending proposals past their expiry, each with an audit event; leaves the rest alone", async () => {
    const due = await Promise.all([
      makeProposal(ES, { expiresAt: minutesFromNow(-5) }),
      makeProposal(ES, { expiresAt: minutesFromNow(-0.01), customerKey: "pablo" }),
      makeProposal(US, { expiresAt: minutesFromNow(-60) }),
    ]);
    const future = await makeProposal(ES, { expiresAt: minutesFromNow(10) });
    const approvedPast = await makeProposal(ES, { expiresAt: minutesFromNow(-5), status: "approved" });
    const rejectedPast = await makeProposal(US, { expiresAt: minutesFromNow(-5), status: "rejected" });

    const { expired } = await expireProposals();
    expect(expired).toBe(3);

    for (const p of due) {
      const row = await db().proposal.findUniqueOrThrow({ where: { id: p.id } });
      expect(row.status).toBe("expired");
      expect(row.decidedAt).not.toBeNull();
      const events = await expireEvents(p.id);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        tenantId: p.tenantId,
        traceId: p.traceId,
        actorType: "system",
        actorId: "worker",
        action: "proposal:expire",
        outcome: "expired",
        proposalId: p.id,
        proposalHash: p.hash,
      });
    }
    for (const [p, status] of [
      [future, "pending_approval"],
      [approvedPast, "approved"],
      [rejectedPast, "rejected"],
    ] as const) {
      expect((await db().proposal.findUniqueOrThrow({ where: { id: p.id } })).status).toBe(status);
      expect(await expireEvents(p.id)).toHaveLength(0);
    }
    // The events joined each tenant's hash chain properly.
    for (const slug of [ES, US]) expect((await verifyAuditChain(await tenantIdOf(slug))).ok).toBe(true);
  });

  it("is idempotent: a second sweep changes nothing and writes no events", async () => {
    const p = await makeProposal(ES, { expiresAt: minutesFromNow(-1) });
    await expireProposals();
    const before = await db().auditEvent.count();
    expect(await expireProposals()).toEqual({ expired: 0 });
    expect(await db().auditEvent.count()).toBe(before);
    expect(await expireEvents(p.id)).toHaveLength(1);
  });

  it("parallel sweeps expire each proposal exactly once", async () => {
    const made = [];
    for (let i = 0; i < 24; i++)
      made.push(
        await makeProposal(i % 3 === 0 ? US : ES, {
          expiresAt: minutesFromNow(-1 - i),
          customerKey: i % 3 === 0 ? "john" : i % 2 ? "ana" : "pablo",
        }),
      );
    // Small batches so the sweeps really interleave over the same rows.
    const results = await Promise.all(Array.from({ length: 4 }, () => expireProposals({ batchSize: 3 })));
    expect(results.reduce((sum, r) => sum + r.expired, 0)).toBe(made.length);
    const statuses = await db().proposal.findMany({
      where: { id: { in: made.map((p) => p.id) } },
      select: { status: true },
    });
    expect(statuses.every((s) => s.status === "expired")).toBe(true);
    const events = await db().auditEvent.groupBy({
      by: ["proposalId"],
      where: { action: "proposal:expire", proposalId: { in: made.map((p) => p.id) } },
      _count: true,
    });
    expect(events).toHaveLength(made.length);
    expect(events.every((e) => e._count === 1)).toBe(true);
    for (const slug of [ES, US]) expect((await verifyAuditChain(await tenantIdOf(slug))).ok).toBe(true);
  });

  it("runs as a graphile-worker job (the path the crontab takes)", async () => {
    const p = await makeProposal(US, { expiresAt: minutesFromNow(-2) });
    await transaction((tx) => enqueueJob(sqlOf(tx), "expire_proposals", {}));
    await runJobsOnce();
    expect((await db().proposal.findUniqueOrThrow({ where: { id: p.id } })).status).toBe("expired");
    const left = await sql<{ n: bigint }>`SELECT count(*) AS n FROM graphile_worker._private_jobs`.execute(sqlPool());
    expect(Number(left.rows[0]?.n)).toBe(0);
  });
});
