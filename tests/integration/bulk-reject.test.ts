// Bulk reject (docs/design.md "Approvals"): one customer message for several selected proposals, each its own
// decision through the single rejection — its own transaction, hash check and audit event over its own hash.
// A proposal that changed meanwhile (decided by someone else, a stale hash, another tenant's) is reported and
// the others are still rejected.
import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/server/db/client";
import { bulkRejectProposals } from "@/lib/server/proposals/bulk-reject-proposals";
import { rejectProposal } from "@/lib/server/proposals/reject-proposal";
import { BULK_REJECT_MAX } from "@/lib/schemas/proposals";
import { auditFingerprint } from "@/lib/server/audit/fingerprint";
import { actorFor, staffOf } from "../support/actors";
import { refusal } from "../support/refusal";
import { preparedForFreshOrder } from "./proposal-support";
import { ES, US, john } from "./gateway-support";

const EMAIL = "maria.lopez@correo.example";

describe("bulkRejectProposals", () => {
  it("rejects each selected proposal as its own audited decision; one decided meanwhile or with a stale hash is reported, the others still rejected", async () => {
    const lucia = await actorFor(staffOf(ES, "reviewer", 0).email);
    const javier = await actorFor(staffOf(ES, "reviewer", 1).email);
    const [a, b, c, d] = await Promise.all(
      [1_101, 1_102, 1_103, 1_104].map(async (n) => (await preparedForFreshOrder(n, { prefix: "B" })).proposal),
    );
    const foreign = (await preparedForFreshOrder(1_105, { tenant: US, customer: john, prefix: "B" })).proposal;
    // Meanwhile another reviewer rejected b.
    await rejectProposal(javier, { proposalId: b!.id, hash: b!.hash, customerMessage: "Already handled." });

    const message = `Duplicate request; write to ${EMAIL} if this is wrong.`;
    const { results } = await bulkRejectProposals(lucia, {
      proposals: [
        { proposalId: a!.id, hash: a!.hash },
        { proposalId: b!.id, hash: b!.hash },
        { proposalId: c!.id, hash: "f".repeat(64) }, // not the hash of c
        { proposalId: foreign.id, hash: foreign.hash },
        { proposalId: d!.id, hash: d!.hash },
      ],
      customerMessage: message,
      internalNote: "bulk cleanup",
    });
    expect(results).toEqual([
      { proposalId: a!.id, outcome: "rejected", code: null, message: null },
      { proposalId: b!.id, outcome: "refused", code: "permission_denied", message: expect.any(String) }, // no longer pending
      { proposalId: c!.id, outcome: "refused", code: "invalid_arguments", message: expect.stringContaining("hash") },
      { proposalId: foreign.id, outcome: "refused", code: "not_found", message: "No such proposal." },
      { proposalId: d!.id, outcome: "rejected", code: null, message: null },
    ]);

    const rows = new Map(
      (await db().proposal.findMany({ where: { id: { in: [a!.id, b!.id, c!.id, d!.id, foreign.id] } } })).map((r) => [
        r.id,
        r,
      ]),
    );
    for (const p of [a!, d!]) {
      const row = rows.get(p.id)!;
      expect(row).toMatchObject({ status: "rejected", rejectedByStaffId: lucia.userId });
      // The single rejection's scrubbing: the message is stored masked.
      expect(row.rejectionReason).not.toContain(EMAIL);
      expect(row.rejectionReason).toContain(auditFingerprint(EMAIL));
    }
    expect(rows.get(b!.id)).toMatchObject({
      status: "rejected",
      rejectedByStaffId: javier.userId,
      rejectionReason: "Already handled.",
    });
    expect(rows.get(c!.id)!.status).toBe("pending_approval");
    expect(rows.get(foreign.id)!.status).toBe("pending_approval");

    // One audit event per decision, each over its own proposal's hash and in its own trace.
    const events = await db().auditEvent.findMany({
      where: { action: "proposal:reject", actorId: lucia.userId, proposalId: { in: [a!.id, b!.id, c!.id, d!.id] } },
      select: { proposalId: true, proposalHash: true, outcome: true, traceId: true },
    });
    expect(events).toHaveLength(4);
    const ok = events.filter((e) => e.outcome === "ok");
    expect(ok.map((e) => [e.proposalId, e.proposalHash]).sort()).toEqual(
      [
        [a!.id, a!.hash],
        [d!.id, d!.hash],
      ].sort(),
    );
    expect(new Set(events.map((e) => e.traceId)).size).toBe(4);
  });

  it(`takes 1 to ${BULK_REJECT_MAX} distinct proposals, refuses anything else before rejecting any`, async () => {
    const lucia = await actorFor(staffOf(ES, "reviewer", 0).email);
    const { proposal } = await preparedForFreshOrder(1_201, { prefix: "B" });
    const item = { proposalId: proposal.id, hash: proposal.hash };
    const fake = () => ({ proposalId: randomUUID(), hash: "a".repeat(64) });
    for (const proposals of [[], [item, item], [item, ...Array.from({ length: BULK_REJECT_MAX }, fake)]]) {
      expect(await refusal(bulkRejectProposals(lucia, { proposals, customerMessage: "Not eligible." }))).toMatchObject({
        code: "invalid_arguments",
      });
    }
    expect(await refusal(bulkRejectProposals(lucia, { proposals: [item], customerMessage: "no" }))).toMatchObject({
      code: "invalid_arguments",
    });
    expect((await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } })).status).toBe("pending_approval");
    // Exactly at the limit: accepted (the unknown ones are reported, the real one rejected).
    const { results } = await bulkRejectProposals(lucia, {
      proposals: [item, ...Array.from({ length: BULK_REJECT_MAX - 1 }, fake)],
      customerMessage: "Not eligible.",
    });
    expect(results).toHaveLength(BULK_REJECT_MAX);
    expect(results[0]).toMatchObject({ outcome: "rejected" });
    expect(results.slice(1).every((r) => r.code === "not_found")).toBe(true);
  });

  it("is for reviewers only", async () => {
    const { proposal } = await preparedForFreshOrder(1_301, { prefix: "B" });
    for (const role of ["ops", "admin", "auditor"] as const) {
      const actor = await actorFor(staffOf(ES, role).email);
      expect(
        await refusal(
          bulkRejectProposals(actor, {
            proposals: [{ proposalId: proposal.id, hash: proposal.hash }],
            customerMessage: "Not eligible.",
          }),
        ),
      ).toMatchObject({
        code: "permission_denied",
      });
    }
    expect((await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } })).status).toBe("pending_approval");
  });
});
