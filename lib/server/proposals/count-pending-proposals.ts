import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import { proposalStatus } from "@/lib/domain/proposal-state";
import { statusLit } from "@/lib/server/db/status-sql";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import type { Actor } from "@/lib/server/auth/actor";

/** Counting stops here: the tab title says "99+" beyond, and the count costs the same for any backlog. */
export const PENDING_COUNT_CAP = 100;

/**
 * How many of the tenant's proposals wait for a decision (the queue's own conditions: pending approval,
 * not expired), for the reviewer's tab title. Reviewers only; at most PENDING_COUNT_CAP rows are counted.
 */
export async function countPendingProposals(actor: Actor): Promise<{ count: number; capped: boolean }> {
  assertCan(actor.roles, "proposal:decide");
  const row = await sqlPool()
    .selectFrom((q) =>
      q
        .selectFrom("Proposal")
        .select(sql.lit(1).as("one"))
        .where("tenantId", "=", actor.tenantId)
        .where("status", "=", statusLit(proposalStatus.pendingApproval))
        .where("expiresAt", ">", sql<Date>`now()`)
        .limit(PENDING_COUNT_CAP)
        .as("pending"),
    )
    .select(sql<number>`count(*)::int`.as("n"))
    .executeTakeFirst();
  const n = row?.n ?? 0;
  return { count: n, capped: n >= PENDING_COUNT_CAP };
}
