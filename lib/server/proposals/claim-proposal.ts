import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { CLAIM_MINUTES } from "@/lib/domain/proposal-claim";
import { proposalStatus } from "@/lib/domain/proposal-state";
import type { ClaimResult } from "@/lib/schemas/proposal-dto";
import { statusLit } from "@/lib/server/db/status-sql";
import { sqlOf, sql } from "@/lib/server/db/sql";
import { recordStaffEvent } from "@/lib/server/audit/record-event";
import type { Actor } from "@/lib/server/auth/actor";
import { isUuid } from "@/lib/domain/validation";
import { transaction } from "@/lib/server/db/transaction";

const pending = statusLit(proposalStatus.pendingApproval);

/**
 * "I'm reviewing this": takes (or renews) the advisory claim on a pending proposal for CLAIM_MINUTES.
 * One guarded UPDATE decides — free, already mine, or lapsed — so of two reviewers claiming at once
 * exactly one wins; the other gets `claimed_by_other` naming who holds it. Expiry is a timestamp compared
 * in SQL (no job). A claim never blocks a decision, and its holder's decision (approve or reject) ends it, in the
 * decision's transaction (proposal-guards.ts releaseOwnClaim).
 */
export async function claimProposal(actor: Actor, proposalId: string): Promise<ClaimResult> {
  assertCan(actor.roles, "proposal:decide");
  if (!isUuid(proposalId)) throw new AppError("not_found", "No such proposal.");
  return transaction(async (tx) => {
    const won = (
      await sql<{ hash: string; traceId: string; claimExpiresAt: Date }>`
      UPDATE "Proposal"
         SET "claimedByStaffId" = ${actor.userId}::uuid, "claimExpiresAt" = now() + make_interval(mins => ${CLAIM_MINUTES}::int)
       WHERE "id" = ${proposalId}::uuid AND "tenantId" = ${actor.tenantId}::uuid
         AND "status" = ${pending} AND "expiresAt" > now()
         AND ("claimedByStaffId" IS NULL OR "claimedByStaffId" = ${actor.userId}::uuid OR "claimExpiresAt" <= now())
      RETURNING "hash", "traceId", "claimExpiresAt"`.execute(sqlOf(tx))
    ).rows;
    const row = won[0];
    if (row) {
      // Filed under the proposal's own trace: the trace's story (and its export) holds who reviewed it.
      await recordStaffEvent(sqlOf(tx), actor, {
        traceId: row.traceId,
        action: "proposal:claim",
        outcome: "ok",
        proposal: { id: proposalId, hash: row.hash },
        data: { until: row.claimExpiresAt.toISOString() },
        redaction: { clear: ["until"] },
      });
      return {
        proposalId,
        claimedBy: { id: actor.userId, name: actor.name },
        until: row.claimExpiresAt.toISOString(),
        mine: true,
      };
    }
    // Lost: say why (read after the guarded write, for the message only — the write already decided).
    const p = (
      await sql<{
        status: string;
        open: boolean;
        holderId: string | null;
        holderName: string | null;
        claimExpiresAt: Date | null;
      }>`
      SELECT p."status"::text AS status, (p."status" = ${pending} AND p."expiresAt" > now()) AS open,
             p."claimedByStaffId" AS "holderId", s.name AS "holderName", p."claimExpiresAt"
        FROM "Proposal" p LEFT JOIN "StaffUser" s ON s.id = p."claimedByStaffId" AND s."tenantId" = p."tenantId"
       WHERE p."id" = ${proposalId}::uuid AND p."tenantId" = ${actor.tenantId}::uuid`.execute(sqlOf(tx))
    ).rows;
    const found = p[0];
    if (!found) throw new AppError("not_found", "No such proposal.");
    if (!found.open)
      throw new AppError("permission_denied", "Only a proposal that still awaits approval can be claimed.", {
        reason: "not_pending",
      });
    throw new AppError(
      "claimed_by_other",
      `${found.holderName ?? "Another reviewer"} is reviewing this proposal. You can still decide: the claim is advisory.`,
      {
        claimedBy: { id: found.holderId, name: found.holderName },
        until: found.claimExpiresAt?.toISOString() ?? null,
      },
    );
  });
}

/** Gives the claim back (only the holder can); answers whether there was one to release. Audited when released. */
export async function releaseProposalClaim(
  actor: Actor,
  proposalId: string,
): Promise<{ proposalId: string; released: boolean }> {
  assertCan(actor.roles, "proposal:decide");
  if (!isUuid(proposalId)) throw new AppError("not_found", "No such proposal.");
  return transaction(async (tx) => {
    const released = (
      await sql<{ hash: string; traceId: string }>`
      UPDATE "Proposal" SET "claimedByStaffId" = NULL, "claimExpiresAt" = NULL
       WHERE "id" = ${proposalId}::uuid AND "tenantId" = ${actor.tenantId}::uuid
         AND "claimedByStaffId" = ${actor.userId}::uuid AND "claimExpiresAt" > now()
      RETURNING "hash", "traceId"`.execute(sqlOf(tx))
    ).rows;
    const row = released[0];
    if (!row) {
      const exists = await tx.proposal.count({ where: { id: proposalId, tenantId: actor.tenantId } });
      if (!exists) throw new AppError("not_found", "No such proposal.");
      return { proposalId, released: false };
    }
    await recordStaffEvent(sqlOf(tx), actor, {
      traceId: row.traceId,
      action: "proposal:release_claim",
      outcome: "ok",
      proposal: { id: proposalId, hash: row.hash },
    });
    return { proposalId, released: true };
  });
}
