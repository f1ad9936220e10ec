import "server-only";
import { agentOutcomeFor, proposalStatus } from "@/lib/domain/proposal-state";
import { sqlOf, sql } from "@/lib/server/db/sql";
import { statusLit } from "@/lib/server/db/status-sql";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import { transaction } from "@/lib/server/db/transaction";

const pending = statusLit(proposalStatus.pendingApproval);
const SYSTEM_ACTOR = { type: "system", id: "worker" } as const;
const DEFAULT_BATCH = 500;
const MAX_BATCHES = 20;

type ExpiredRow = { id: string; tenantId: string; hash: string; traceId: string; expiresAt: Date };

/**
 * The expiry sweep (job `expire_proposals`, every minute; also callable directly). Each batch is one
 * guarded UPDATE — status still `pending_approval` and `expiresAt` passed — whose RETURNING rows get one
 * audit event each (`proposal:expire`, outcome `expired`) in the same transaction.
 *
 * Why `FOR UPDATE SKIP LOCKED` in the CTE: a row that an approver's transaction holds right now is left
 * for that transaction (approve re-checks expiry itself) and for the next sweep, instead of making the
 * sweep wait; two sweeps running at once take disjoint rows, and the outer `status = 'pending_approval'`
 * guard re-checks each row after locking, so every proposal is expired exactly once.
 * Batches keep one transaction (and its audit advisory locks) short when a backlog built up.
 */
export async function expireProposals(opts: { batchSize?: number } = {}): Promise<{ expired: number }> {
  const batchSize = opts.batchSize ?? DEFAULT_BATCH;
  let expired = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const count = await expireBatch(batchSize);
    expired += count;
    if (count < batchSize) break;
  }
  return { expired };
}

async function expireBatch(batchSize: number): Promise<number> {
  return transaction(
    async (tx) => {
      const rows = (
        await sql<ExpiredRow>`
        WITH due AS (
          SELECT id FROM "Proposal"
          WHERE status = ${pending} AND "expiresAt" <= now()
          ORDER BY "expiresAt", id
          LIMIT ${batchSize}
          FOR UPDATE SKIP LOCKED
        )
        UPDATE "Proposal" AS p
        SET status = ${statusLit(proposalStatus.expired)}, "decidedAt" = now(), "updatedAt" = now()
        FROM due
        WHERE p.id = due.id AND p.status = ${pending} AND p."expiresAt" <= now()
        RETURNING p.id, p."tenantId", p.hash, p."traceId", p."expiresAt"`.execute(sqlOf(tx))
      ).rows;

      // A fixed order of tenants: the audit writer takes one advisory lock per tenant chain.
      rows.sort(
        (a, b) =>
          a.tenantId.localeCompare(b.tenantId) ||
          a.expiresAt.getTime() - b.expiresAt.getTime() ||
          a.id.localeCompare(b.id),
      );
      for (const row of rows) {
        await recordAuditEvent(sqlOf(tx), {
          tenantId: row.tenantId,
          traceId: row.traceId,
          actor: SYSTEM_ACTOR,
          action: "proposal:expire",
          outcome: agentOutcomeFor(proposalStatus.expired),
          proposal: { id: row.id, hash: row.hash },
          data: { expiresAt: row.expiresAt.toISOString() },
          redaction: { clear: ["expiresAt"] },
        });
      }
      return rows.length;
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
}
