// An expired proposal never contradicts itself (issue #36 item 7): reads derive expiry from the clock, so the
// page and the API say `expired` the moment it passes, before any sweep wrote it; and a running worker writes it
// within seconds (its expiry sweep between the crontab's minute ticks), not up to a minute later.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { runWorker } from "@/lib/server/jobs/run-worker";
import { getProposal } from "@/lib/server/proposals/get-proposal";
import { actorFor, staffOf } from "../support/actors";
import { ES, makeProposal, minutesFromNow } from "./jobs-support";

describe("an expired proposal reads expired", () => {
  it("the detail says expired and offers no decision once the expiry passed, before the sweep ran", async () => {
    const p = await makeProposal(ES, { expiresAt: minutesFromNow(-0.2) });
    const detail = await getProposal(await actorFor(staffOf(ES, "reviewer").email), p.id);
    expect(detail.status).toBe("expired");
    expect(detail.viewer).toMatchObject({ canDecide: false, canReject: false });
    // Nothing was written by the read: the sweep does that (and audits it).
    expect((await db().proposal.findUniqueOrThrow({ where: { id: p.id } })).status).toBe("pending_approval");
  });

  it("a running worker marks it expired within seconds of the expiry", async () => {
    const runner = await runWorker({ databaseUrl: process.env.DATABASE_URL, concurrency: 1, expirySweepMs: 250 });
    try {
      const p = await makeProposal(ES, { expiresAt: new Date(Date.now() + 1_000) });
      let status = "pending_approval";
      for (let i = 0; i < 40 && status !== "expired"; i++) {
        await new Promise((r) => setTimeout(r, 250));
        status = (await db().proposal.findUniqueOrThrow({ where: { id: p.id } })).status;
      }
      expect(status).toBe("expired");
      expect(await db().auditEvent.count({ where: { proposalId: p.id, action: "proposal:expire" } })).toBe(1);
    } finally {
      await runner.stop();
    }
  });
});
