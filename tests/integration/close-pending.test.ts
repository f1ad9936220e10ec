// closePending (lib/server/proposals/proposal-guards.ts): the guarded UPDATE every reviewer decision ends with.
// Reviewer decisions also hold the proposal's row lock, so their own tests cannot tell whether the
// `WHERE status = pending_approval` guard is there; this test can: a proposal that is no longer pending is never
// moved again, whatever the caller asks for.
import { describe, expect, it } from "vitest";
import { proposalStatus as S } from "@/lib/domain/proposal-state";
import { db } from "@/lib/server/db/client";
import { closePending } from "@/lib/server/proposals/proposal-guards";
import { preparedForFreshOrder } from "./proposal-support";
import { transaction } from "@/lib/server/db/transaction";

describe("closePending", () => {
  it("moves a pending proposal once; a closed one (rejected, expired, approved) stays as it is", async () => {
    const { proposal } = await preparedForFreshOrder(1500, { prefix: "CP" });
    const now = new Date();
    const moved = await transaction((tx) =>
      closePending(tx, proposal.id, { status: S.rejected, rejectionReason: "first", decidedAt: now }),
    );
    expect(moved).toBe(true);
    for (const status of [S.invalidated, S.expired, S.approved] as const) {
      const again = await transaction((tx) =>
        closePending(tx, proposal.id, { status, invalidationReason: "second", decidedAt: new Date() }),
      );
      expect(again, status).toBe(false);
    }
    const row = await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } });
    expect(row).toMatchObject({ status: S.rejected, rejectionReason: "first", invalidationReason: null });
    expect(row.decidedAt?.toISOString()).toBe(now.toISOString());
  });

  it("two concurrent closes of one pending proposal (no row lock held): exactly one wins", async () => {
    const { proposal } = await preparedForFreshOrder(1600, { prefix: "CP" });
    const results = await Promise.all(
      [S.rejected, S.invalidated].map((status) =>
        transaction((tx) => closePending(tx, proposal.id, { status, decidedAt: new Date() })),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const row = await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } });
    expect([S.rejected, S.invalidated]).toContain(row.status);
  });
});
