import "server-only";
// What every kind's prepare reads and writes about its subject's proposals (docs/action-kinds.md), under the
// subject's lock the caller holds: whether the tenant has an action endpoint, the pending proposal of (tenant, kind,
// subject), the rejections still in the tenant's cool-down, and replacing a pending proposal. Knows no kind.
import { failure } from "@/lib/domain/agent-protocol";
import type { ProposalSubject } from "@/lib/domain/proposal-hash";
import { proposalStatus } from "@/lib/domain/proposal-state";
import { nowUtc, sql, type Sql } from "@/lib/server/db/sql";
import type { KindProposal } from "./insert-kind-proposal";

/** Whether the tenant has a shop action endpoint (a kind the shop carries out cannot be executed without one). */
export async function hasActionEndpoint(tx: Sql, tenantId: string): Promise<boolean> {
  const { rows } = await sql`SELECT 1 FROM "ActionEndpoint" WHERE "tenantId" = ${tenantId}::uuid`.execute(tx);
  return rows.length > 0;
}

/** The proposal of (tenant, kind, subject) awaiting review, if any (at most one: a partial unique index). */
export async function pendingProposalOf(
  tx: Sql,
  tenantId: string,
  kind: string,
  subject: ProposalSubject,
): Promise<KindProposal | null> {
  const { rows } = await sql<KindProposal>`
    SELECT p."id", p."hash", p."kind", p."subject", p."params", p."reason", p."expiresAt", p."requiredApprovals"
      FROM "Proposal" p
     WHERE p."tenantId" = ${tenantId}::uuid AND p."kind" = ${kind} AND p."subject" ->> 'type' = ${subject.type}
       AND p."subject" ->> 'ref' = ${subject.ref} AND p."status" = ${proposalStatus.pendingApproval}::"ProposalStatus"`.execute(
    tx,
  );
  return rows[0] ?? null;
}

export type RecentRejection = {
  id: string;
  hash: string;
  params: unknown;
  rejectionReason: string | null;
  decidedAt: Date;
};

/** The subject's proposals of the kind a reviewer rejected within the last `cooldownMinutes`, newest first. */
export async function rejectionsInCooldown(
  tx: Sql,
  tenantId: string,
  kind: string,
  subject: ProposalSubject,
  cooldownMinutes: number,
  now: Date,
): Promise<RecentRejection[]> {
  const { rows } = await sql<RecentRejection>`
    SELECT p."id", p."hash", p."params", p."rejectionReason", p."decidedAt"
      FROM "Proposal" p
     WHERE p."tenantId" = ${tenantId}::uuid AND p."kind" = ${kind} AND p."subject" ->> 'type' = ${subject.type}
       AND p."subject" ->> 'ref' = ${subject.ref} AND p."status" = ${proposalStatus.rejected}::"ProposalStatus"
       AND p."decidedAt" > (${now.toISOString()}::timestamptz AT TIME ZONE 'UTC') - make_interval(mins => ${cooldownMinutes}::int)
     ORDER BY p."decidedAt" DESC, p."id" DESC`.execute(tx);
  return rows;
}

/** When the cool-down of a rejection ends (ISO). */
export const cooldownEnds = (r: Pick<RecentRejection, "decidedAt">, cooldownMinutes: number) =>
  new Date(r.decidedAt.getTime() + cooldownMinutes * 60_000).toISOString();

/**
 * The answer to a request asked again during the tenant's cool-down after a reviewer rejected it: `rejected` with the
 * reviewer's reason and when it may be asked again, naming the rejected proposal. `what` says what was rejected
 * ("the cancellation of order \"#1001\""); `subject` adds the fields that name it to the agent (`order_id`).
 */
export function cooldownRefusal(
  rejected: RecentRejection,
  cooldownMinutes: number,
  what: string,
  subject: Record<string, unknown> = {},
) {
  const until = cooldownEnds(rejected, cooldownMinutes);
  return {
    outcome: failure(
      "rejected",
      `A reviewer rejected ${what} on ${rejected.decidedAt.toISOString()}. It cannot be requested again before ${until}. Tell the customer the reason; do not retry.`,
      {
        ...subject,
        reason: rejected.rejectionReason,
        rejected_at: rejected.decidedAt.toISOString(),
        retry_after: until,
        previous_proposal_id: rejected.id,
      },
    ),
    proposal: { id: rejected.id, hash: rejected.hash },
  };
}

/** Ends a pending proposal that a new one replaces (guarded: only while it is still pending). */
export async function replacePending(tx: Sql, id: string, reason: string): Promise<void> {
  await sql`
    UPDATE "Proposal" SET "status" = ${proposalStatus.invalidated}::"ProposalStatus", "invalidationReason" = ${reason},
           "decidedAt" = ${nowUtc}, "updatedAt" = ${nowUtc}
     WHERE "id" = ${id}::uuid AND "status" = ${proposalStatus.pendingApproval}::"ProposalStatus"`.execute(tx);
}
