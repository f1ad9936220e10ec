// The evidence pack summary against the real database: a proposal prepared by the agent through the real
// gateway and approved by a reviewer; the summary names them (tenant-scoped), states the hash and the
// signed checkpoint, and carries the offline verifier's verdict on the very bytes the download serves.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { integratePending } from "@/lib/server/audit/sequencer";
import { getEvidenceSummary } from "@/lib/server/audit/evidence-summary";
import { ES, US, ana } from "./gateway-support";
import { actorOf, approvedProposal, asAuditOwner } from "./audit-support";

/** Rewrites one event as a database owner would (append-only triggers off). */
const rewriteOutcome = (eventId: string, outcome: string) =>
  asAuditOwner(`UPDATE "AuditEvent" SET outcome = $2 WHERE id = $1`, [eventId, outcome]);

describe("evidence pack summary", () => {
  it("says who prepared and approved (how, when), the hash, the checkpoint and that the pack verifies", async () => {
    const { proposal } = await approvedProposal(ana, 2_750);
    await integratePending();
    const auditor = await actorOf(ES, "auditor");
    const reviewer = await actorOf(ES, "reviewer");
    const s = await getEvidenceSummary(auditor, proposal.id);
    const prepare = await db().auditEvent.findFirstOrThrow({
      where: { proposalId: proposal.id, action: "tool:prepare_refund" },
    });
    const key = await db().agentKey.findUniqueOrThrow({ where: { id: prepare.actorId! } });
    expect(s.proposal).toMatchObject({
      id: proposal.id,
      hash: proposal.hash,
      amountMinor: 2_750,
      currency: proposal.currency,
      reason: "damaged_item",
    });
    expect(s.preparedBy).toMatchObject({ actorType: "agent", actorId: key.id, name: key.name });
    expect(s.approvals).toEqual([
      expect.objectContaining({
        approverId: reviewer.userId,
        name: `${reviewer.name} <${reviewer.email}>`,
        authMethod: "session",
        passkey: null,
      }),
    ]);
    expect(s.execution).toBeNull();
    expect(s.checkpoint?.treeSize).toBeGreaterThan(0);
    expect(s.events.total).toBeGreaterThan(0);
    expect(s.events.proven).toBe(s.events.total);
    expect(s.verification).toMatchObject({ ok: true, failed: [] });
    expect(s.verification.checks).toBeGreaterThan(5);
    // Building it is audited like a download.
    expect(
      await db().auditEvent.count({
        where: { proposalId: proposal.id, action: "audit:evidence_pack", actorId: auditor.userId },
      }),
    ).toBe(1);
  });

  it("a rewritten event makes the summary say the pack does not verify, and which check failed", async () => {
    const { proposal } = await approvedProposal(ana, 1_999);
    await integratePending();
    const approve = await db().auditEvent.findFirstOrThrow({
      where: { proposalId: proposal.id, action: "proposal:approve" },
    });
    await rewriteOutcome(approve.id, "permission_denied");
    try {
      const s = await getEvidenceSummary(await actorOf(ES, "auditor"), proposal.id);
      expect(s.verification.ok).toBe(false);
      expect(s.verification.failed.map((c) => c.name)).toContain(`event ${approve.id} hash`);
    } finally {
      await rewriteOutcome(approve.id, approve.outcome);
    }
  });

  it("another tenant's auditor gets not_found; reviewers are refused", async () => {
    const { proposal } = await approvedProposal(ana);
    await expect(getEvidenceSummary(await actorOf(US, "auditor"), proposal.id)).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(getEvidenceSummary(await actorOf(ES, "reviewer"), proposal.id)).rejects.toMatchObject({
      code: "permission_denied",
    });
    await expect(getEvidenceSummary(await actorOf(ES, "auditor"), "not-a-uuid")).rejects.toMatchObject({
      code: "not_found",
    });
  });
});
