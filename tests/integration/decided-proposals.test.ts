// The "Decided" view's search against the real database: proposals made by the real gateway handler,
// decided through the real use cases, searched by order, customer, amount and reviewer, tenant-bound.
import { describe, expect, it } from "vitest";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { rejectProposal } from "@/lib/server/proposals/reject-proposal";
import { listDecidedProposals } from "@/lib/server/proposals/list-decided-proposals";
import { actorFor, staffOf } from "../support/actors";
import { ES, US, ana, john } from "./gateway-support";
import { preparedForFreshOrder } from "./proposal-support";

const prepare = (tenant: string, customer: string, amountMinor: number) =>
  preparedForFreshOrder(amountMinor, { tenant, customer, prefix: "D" });

const ids = (page: { rows: { id: string }[] }) => page.rows.map((r) => r.id);

describe("listDecidedProposals", () => {
  it("finds approved and rejected proposals by order, customer, amount and reviewer; never pending ones", async () => {
    const lucia = await actorFor(staffOf(ES, "reviewer", 0).email);
    const javier = await actorFor(staffOf(ES, "reviewer", 1).email);
    const approved = await prepare(ES, ana, 31_337);
    const rejected = await prepare(ES, ana, 27_182);
    const pending = await prepare(ES, ana, 16_180);
    await approveProposal(lucia, { proposalId: approved.proposal.id, hash: approved.proposal.hash });
    await rejectProposal(javier, {
      proposalId: rejected.proposal.id,
      hash: rejected.proposal.hash,
      reason: "Already replaced",
    });

    const all = await listDecidedProposals(lucia, {});
    expect(ids(all)).toEqual(expect.arrayContaining([approved.proposal.id, rejected.proposal.id]));
    expect(ids(all)).not.toContain(pending.proposal.id);

    expect(ids(await listDecidedProposals(lucia, { q: approved.number }))).toEqual([approved.proposal.id]);
    expect(ids(await listDecidedProposals(lucia, { q: pending.number }))).toEqual([]);
    // Amount as a person types it, in the tenant's currency (EUR): 313,37 → 31337 minor units.
    expect(ids(await listDecidedProposals(lucia, { q: "313,37" }))).toEqual([approved.proposal.id]);
    const byCustomer = await listDecidedProposals(lucia, { q: "ana garc" });
    expect(ids(byCustomer)).toEqual(expect.arrayContaining([approved.proposal.id, rejected.proposal.id]));

    const byApprover = await listDecidedProposals(javier, { q: lucia.name.split(" ")[0] });
    expect(ids(byApprover)).toContain(approved.proposal.id);
    expect(ids(byApprover)).not.toContain(rejected.proposal.id);
    const row = byApprover.rows.find((r) => r.id === approved.proposal.id)!;
    expect(row).toMatchObject({
      status: "approved",
      reviewers: [lucia.name],
      amountMinor: 31_337,
      currency: "EUR",
      orderNumber: approved.number,
    });

    const byRejecter = await listDecidedProposals(lucia, { q: javier.name.split(" ")[0] });
    expect(ids(byRejecter)).toContain(rejected.proposal.id);
    expect(ids(byRejecter)).not.toContain(approved.proposal.id);
    expect(byRejecter.rows.find((r) => r.id === rejected.proposal.id)).toMatchObject({
      status: "rejected",
      rejectedBy: javier.name,
    });

    expect(ids(await listDecidedProposals(lucia, { status: "rejected", q: rejected.number }))).toEqual([
      rejected.proposal.id,
    ]);
    expect(ids(await listDecidedProposals(lucia, { status: "approved", q: rejected.number }))).toEqual([]);
  });

  it("pages with a stable order and reports the total", async () => {
    const lucia = await actorFor(staffOf(ES, "reviewer", 0).email);
    for (let i = 0; i < 3; i++) {
      const { proposal } = await prepare(ES, ana, 1_000 + i);
      await rejectProposal(lucia, { proposalId: proposal.id, hash: proposal.hash, reason: "Paging test" });
    }
    const p1 = await listDecidedProposals(lucia, { pageSize: 2, page: 1 });
    const p2 = await listDecidedProposals(lucia, { pageSize: 2, page: 2 });
    expect(p1.total).toBeGreaterThanOrEqual(3);
    expect(p1.rows).toHaveLength(2);
    expect(ids(p2).some((id) => ids(p1).includes(id))).toBe(false);
  });

  it("never shows another tenant's proposals or matches another tenant's reviewers", async () => {
    const lucia = await actorFor(staffOf(ES, "reviewer", 0).email);
    const riley = await actorFor(staffOf(US, "reviewer", 0).email);
    const es = await prepare(ES, ana, 4_242);
    await approveProposal(lucia, { proposalId: es.proposal.id, hash: es.proposal.hash });
    const us = await prepare(US, john, 4_343);
    await approveProposal(riley, { proposalId: us.proposal.id, hash: us.proposal.hash });

    expect(ids(await listDecidedProposals(riley, { q: es.number }))).toEqual([]);
    expect(ids(await listDecidedProposals(riley, { q: lucia.name }))).toEqual([]);
    expect(ids(await listDecidedProposals(riley, {}))).not.toContain(es.proposal.id);
    expect(ids(await listDecidedProposals(lucia, {}))).not.toContain(us.proposal.id);
  });

  it("refuses bad filters and roles without proposal access", async () => {
    const lucia = await actorFor(staffOf(ES, "reviewer", 0).email);
    await expect(listDecidedProposals(lucia, { status: "pending_approval" })).rejects.toMatchObject({
      code: "invalid_arguments",
    });
    await expect(listDecidedProposals(lucia, { page: "0" })).rejects.toMatchObject({ code: "invalid_arguments" });
    await expect(listDecidedProposals(lucia, { q: "x".repeat(101) })).rejects.toMatchObject({
      code: "invalid_arguments",
    });
    const auditor = await actorFor(staffOf(ES, "auditor").email);
    await expect(listDecidedProposals(auditor, {})).rejects.toMatchObject({ code: "permission_denied" });
  });
});
