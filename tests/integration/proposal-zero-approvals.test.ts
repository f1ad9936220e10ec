// A proposal row whose requiredApprovals was set to 0 (or less) in the database asks for no approval at all.
// Approval and execution refuse it cleanly — invalidated (stored_hash_mismatch), audited — never "approved
// with zero approvals" and never internal_error (the hash code throws on such a value).
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { executeRefund } from "@/lib/server/executions/execute-refund";
import { computeProposalHash, hashInputOf } from "@/lib/domain/proposal-hash";
import { actorFor, staffOf } from "../support/actors";
import { ES } from "./gateway-support";
import { preparedForFreshOrder } from "./proposal-support";

const reviewer = () => actorFor(staffOf(ES, "reviewer", 0).email);

describe("requiredApprovals of zero or less found in the database", () => {
  it.each([0, -1])(
    "v2 proposal with requiredApprovals = %i: approval refused as invalidated, no Approval row",
    async (required) => {
      const { proposal: p } = await preparedForFreshOrder(3_100 + required, { prefix: "Z" });
      await sql`UPDATE "Proposal" SET "requiredApprovals" = ${required} WHERE id = ${p.id}::uuid`.execute(sqlPool());
      await expect(approveProposal(await reviewer(), { proposalId: p.id, hash: p.hash })).rejects.toMatchObject({
        code: "invalidated",
        details: { reason: "stored_hash_mismatch" },
      });
      expect(await db().proposal.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
        status: "invalidated",
        invalidationReason: "stored_hash_mismatch",
      });
      expect(await db().approval.count({ where: { proposalId: p.id } })).toBe(0);
      const event = await db().auditEvent.findFirst({
        where: { proposalId: p.id, action: "proposal:approve" },
        orderBy: { occurredAt: "desc" },
      });
      expect(event?.outcome).toBe("invalidated");
    },
  );

  it("v1 proposal (requiredApprovals not in its hash) with requiredApprovals = 0 and a hash that matches: still refused", async () => {
    const { proposal: p } = await preparedForFreshOrder(3_150, { prefix: "Z" });
    // Rewrite it as a consistent v1 row: no policy version, and the v1 hash of its own fields.
    const v1 = { ...p, hashVersion: 1, policyVersion: null, requiredApprovals: 0 };
    const hash = computeProposalHash(hashInputOf(v1));
    await sql`UPDATE "Proposal" SET "hashVersion" = 1, "policyVersion" = NULL, "requiredApprovals" = 0, hash = ${hash} WHERE id = ${p.id}::uuid`.execute(
      sqlPool(),
    );
    await expect(approveProposal(await reviewer(), { proposalId: p.id, hash })).rejects.toMatchObject({
      code: "invalidated",
    });
    expect(await db().approval.count({ where: { proposalId: p.id } })).toBe(0);
  });

  it("an approved proposal whose requiredApprovals became 0 is not executed: revalidation fails, nothing is sent", async () => {
    const { proposal: p } = await preparedForFreshOrder(3_200, { prefix: "Z" });
    // Approved without any Approval row, asking for none: the state a database owner could write.
    await sql`UPDATE "Proposal" SET "requiredApprovals" = 0, status = 'approved' WHERE id = ${p.id}::uuid`.execute(
      sqlPool(),
    );
    expect(await executeRefund(p.id)).toBe("revalidation_failed");
    expect(await db().proposal.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
      status: "invalidated",
      invalidationReason: "stored_hash_mismatch",
    });
    expect(await db().execution.count({ where: { proposalId: p.id } })).toBe(0);
  });
});
