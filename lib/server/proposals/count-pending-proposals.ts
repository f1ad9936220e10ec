import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import { proposalStatus } from "@/lib/domain/proposal-state";
import { statusSql } from "@/lib/server/db/status-sql";
import { db } from "@/lib/server/db/client";
import type { Actor } from "@/lib/server/auth/actor";

/** Counting stops here: the tab title says "99+" beyond, and the count costs the same for any backlog. */
export const PENDING_COUNT_CAP = 100;

/**
 * How many of the tenant's proposals wait for a decision (the queue's own conditions: pending approval,
 * not expired), for the reviewer's tab title. Reviewers only; at most PENDING_COUNT_CAP rows are counted.
 */
export async function countPendingProposals(actor: Actor): Promise<{ count: number; capped: boolean }> {
  assertCan(actor.roles, "proposal:decide");
  const [row] = await db().$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM (
      SELECT 1 FROM "Proposal" p
       WHERE p."tenantId" = ${actor.tenantId}::uuid
         AND p.status = ${statusSql(proposalStatus.pendingApproval)}
         AND p."expiresAt" > now()
       LIMIT ${PENDING_COUNT_CAP}) pending`;
  const n = row?.n ?? 0;
  return { count: n, capped: n >= PENDING_COUNT_CAP };
}
