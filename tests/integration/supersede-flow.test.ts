// Supersede flow: lowering an amount makes a new proposal; the old one, now closed, points to it and never
// flags it (same order, still open) as a possible duplicate; the new one carries the before amount.
import { describe, expect, it } from "vitest";
import { getRefundDetail } from "@/lib/server/proposals/get-proposal";
import { editProposalAmount } from "@/lib/server/proposals/edit-proposal-amount";
import { actorFor, staffOf } from "../support/actors";
import { preparedForFreshOrder } from "./proposal-support";
import { ES } from "./gateway-support";

describe("supersede flow", () => {
  it("the replaced proposal shows its replacement, not a duplicate; the replacement shows before → after", async () => {
    const old = (await preparedForFreshOrder(9_000, { prefix: "SUP" })).proposal;
    const editor = await actorFor(staffOf(ES, "reviewer").email);
    const other = await actorFor(staffOf(ES, "reviewer", 1).email);
    const edited = await editProposalAmount(editor, { proposalId: old.id, hash: old.hash, amountMinor: 6_000 });

    const before = await getRefundDetail(other, old.id);
    expect(before.status).toBe("invalidated");
    expect(before.supersededBy).toMatchObject({ id: edited.proposalId, amountMinor: 6_000 });
    expect(before.possibleDuplicateOf).toBeNull();

    const after = await getRefundDetail(other, edited.proposalId);
    expect(after.supersedes).toMatchObject({ id: old.id, amountMinor: 9_000 });
    expect(after.amountMinor).toBe(6_000);
  });
});
