// The advisory review claim against the real database: one guarded UPDATE decides who holds it, it lapses
// by itself (a timestamp compared in SQL), it never blocks a decision, and it is audited.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { claimProposal, releaseProposalClaim } from "@/lib/server/proposals/claim-proposal";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { rejectProposal } from "@/lib/server/proposals/reject-proposal";
import { getProposal } from "@/lib/server/proposals/get-proposal";
import { listPendingProposals } from "@/lib/server/proposals/list-pending-proposals";
import type { Actor } from "@/lib/server/auth/actor";
import { actorFor, staffOf } from "../support/actors";
import { ES, US, john } from "./gateway-support";
import { preparedForFreshOrder } from "./proposal-support";

const reviewers = async (tenant = ES): Promise<[Actor, Actor]> => [
  await actorFor(staffOf(tenant, "reviewer", 0).email),
  await actorFor(staffOf(tenant, "reviewer", 1).email),
];

describe("claimProposal", () => {
  it("of two reviewers claiming at once exactly one wins; the other gets claimed_by_other naming who", async () => {
    const [lucia, javier] = await reviewers();
    for (let round = 0; round < 5; round++) {
      const { proposal } = await preparedForFreshOrder(1_000 + round, { prefix: "C" });
      const results = await Promise.allSettled([claimProposal(lucia, proposal.id), claimProposal(javier, proposal.id)]);
      const won = results.filter((r) => r.status === "fulfilled");
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      const winner = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof claimProposal>>>).value.claimedBy;
      expect(lost[0]!.reason).toMatchObject({
        code: "claimed_by_other",
        details: { claimedBy: { id: winner.id, name: winner.name } },
      });
      const row = await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } });
      expect(row.claimedByStaffId).toBe(winner.id);
    }
  });

  it("is renewable by its holder, visible to the others on the page and in the queue, released only by its holder", async () => {
    const [lucia, javier] = await reviewers();
    const { proposal } = await preparedForFreshOrder(2_345, { prefix: "C" });
    const first = await claimProposal(lucia, proposal.id);
    const renewed = await claimProposal(lucia, proposal.id);
    expect(new Date(renewed.until).getTime()).toBeGreaterThanOrEqual(new Date(first.until).getTime());

    const seen = await getProposal(javier, proposal.id);
    expect(seen.claim).toMatchObject({ by: lucia.name, mine: false });
    expect((await getProposal(lucia, proposal.id)).claim).toMatchObject({ by: lucia.name, mine: true });
    const row = (await listPendingProposals(javier, { limit: 100 })).rows.find((r) => r.id === proposal.id);
    expect(row?.claim).toMatchObject({ by: lucia.name, mine: false });

    expect(await releaseProposalClaim(javier, proposal.id)).toEqual({ proposalId: proposal.id, released: false });
    expect((await getProposal(javier, proposal.id)).claim).not.toBeNull();
    expect(await releaseProposalClaim(lucia, proposal.id)).toEqual({ proposalId: proposal.id, released: true });
    expect((await getProposal(javier, proposal.id)).claim).toBeNull();
    await expect(claimProposal(javier, proposal.id)).resolves.toMatchObject({ claimedBy: { id: javier.userId } });

    const events = await db().auditEvent.findMany({
      where: { proposalId: proposal.id, action: { in: ["proposal:claim", "proposal:release_claim"] } },
    });
    expect(events.filter((e) => e.action === "proposal:claim" && e.actorId === lucia.userId)).toHaveLength(2);
    expect(events.filter((e) => e.action === "proposal:release_claim" && e.actorId === lucia.userId)).toHaveLength(1);
    expect(events.filter((e) => e.action === "proposal:claim" && e.actorId === javier.userId)).toHaveLength(1);
  });

  it("lapses by itself: once its expiry has passed another reviewer can take it, and it is no longer shown", async () => {
    const [lucia, javier] = await reviewers();
    const { proposal } = await preparedForFreshOrder(3_456, { prefix: "C" });
    await claimProposal(lucia, proposal.id);
    await expect(claimProposal(javier, proposal.id)).rejects.toMatchObject({ code: "claimed_by_other" });
    // Time passes (no job runs): the stored expiry is now in the past.
    await db().proposal.update({ where: { id: proposal.id }, data: { claimExpiresAt: new Date(Date.now() - 1_000) } });
    expect((await getProposal(javier, proposal.id)).claim).toBeNull();
    expect(
      (await listPendingProposals(javier, { limit: 100 })).rows.find((r) => r.id === proposal.id)?.claim,
    ).toBeNull();
    await expect(claimProposal(javier, proposal.id)).resolves.toMatchObject({ claimedBy: { id: javier.userId } });
  });

  it("never blocks another reviewer's approval (advisory)", async () => {
    const [lucia, javier] = await reviewers();
    const { proposal } = await preparedForFreshOrder(4_567, { prefix: "C" });
    await claimProposal(lucia, proposal.id);
    await expect(approveProposal(javier, { proposalId: proposal.id, hash: proposal.hash })).resolves.toMatchObject({
      status: "approved",
    });
  });

  it("queue rows say whether the viewer already approved (review-next skips those)", async () => {
    const [lucia, javier] = await reviewers();
    const { proposal } = await preparedForFreshOrder(60_000, { prefix: "C" }); // above the ES two-reviewer threshold
    await approveProposal(lucia, { proposalId: proposal.id, hash: proposal.hash });
    const rowFor = async (who: Actor) =>
      (await listPendingProposals(who, { limit: 100 })).rows.find((r) => r.id === proposal.id);
    expect(await rowFor(lucia)).toMatchObject({ approvals: 1, approvedByMe: true });
    expect(await rowFor(javier)).toMatchObject({ approvals: 1, approvedByMe: false });
  });

  it("refuses proposals that no longer await review, other tenants' proposals, and people who cannot decide", async () => {
    const [lucia, javier] = await reviewers();
    const { proposal } = await preparedForFreshOrder(5_678, { prefix: "C" });
    await approveProposal(javier, { proposalId: proposal.id, hash: proposal.hash });
    await expect(claimProposal(lucia, proposal.id)).rejects.toMatchObject({
      code: "permission_denied",
      details: { reason: "not_pending" },
    });

    const other = await preparedForFreshOrder(6_789, { tenant: US, customer: john, prefix: "C" });
    await expect(claimProposal(lucia, other.proposal.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(releaseProposalClaim(lucia, other.proposal.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(claimProposal(lucia, "not-a-uuid")).rejects.toMatchObject({ code: "not_found" });
    const { proposal: open } = await preparedForFreshOrder(7_890, { prefix: "C" });
    await expect(claimProposal(await actorFor(staffOf(ES, "auditor").email), open.id)).rejects.toMatchObject({
      code: "permission_denied",
    });
    expect((await db().proposal.findUniqueOrThrow({ where: { id: open.id } })).claimedByStaffId).toBeNull();
  });
});

describe("the claim ends with its holder's decision", () => {
  const holder = async (id: string) => (await db().proposal.findUniqueOrThrow({ where: { id } })).claimedByStaffId;
  const decisionEvent = (id: string, action: string) =>
    db().auditEvent.findFirstOrThrow({ where: { proposalId: id, action, outcome: "ok" } });

  it("the holder's approval releases it in the approval's transaction, even when the proposal still waits for a second reviewer", async () => {
    const [lucia, javier] = await reviewers();
    const { proposal } = await preparedForFreshOrder(60_000, { prefix: "C" }); // two approvals: stays pending
    await claimProposal(lucia, proposal.id);
    await expect(approveProposal(lucia, { proposalId: proposal.id, hash: proposal.hash })).resolves.toMatchObject({
      status: "pending_approval",
    });
    expect(await holder(proposal.id)).toBeNull();
    // The second reviewer is no longer told that the first is reviewing it, and may claim it at once.
    expect((await getProposal(javier, proposal.id)).claim).toBeNull();
    expect((await decisionEvent(proposal.id, "proposal:approve")).data).toMatchObject({ claimReleased: true });
    await expect(claimProposal(javier, proposal.id)).resolves.toMatchObject({ claimedBy: { id: javier.userId } });
  });

  it("the holder's rejection releases it", async () => {
    const [lucia] = await reviewers();
    const { proposal } = await preparedForFreshOrder(3_210, { prefix: "C" });
    await claimProposal(lucia, proposal.id);
    await rejectProposal(lucia, {
      proposalId: proposal.id,
      hash: proposal.hash,
      customerMessage: "Outside the refund window.",
    });
    expect(await holder(proposal.id)).toBeNull();
    expect((await decisionEvent(proposal.id, "proposal:reject")).data).toMatchObject({ claimReleased: true });
  });

  it("another reviewer's decision, or the holder's refused one, leaves the claim with its holder", async () => {
    const [lucia, javier] = await reviewers();
    const { proposal } = await preparedForFreshOrder(61_000, { prefix: "C" });
    await claimProposal(lucia, proposal.id);
    await approveProposal(javier, { proposalId: proposal.id, hash: proposal.hash }); // first of two, not the holder
    expect(await holder(proposal.id)).toBe(lucia.userId);
    expect((await decisionEvent(proposal.id, "proposal:approve")).data).not.toHaveProperty("claimReleased");
    await expect(approveProposal(lucia, { proposalId: proposal.id, hash: "0".repeat(64) })).rejects.toMatchObject({
      code: "invalid_arguments",
    });
    expect(await holder(proposal.id)).toBe(lucia.userId);
  });
});
