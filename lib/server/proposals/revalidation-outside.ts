import "server-only";
// A kind's look outside our database before a proposal's lock (KindBehaviour.revalidateOutside, docs/action-kinds.md):
// the proposal read unlocked — scoped to the caller's tenant, and only while it can still be decided — and handed to
// the kind by the approval, a customer's confirmation and the action-endpoint executor, so a slow system of record
// (a declared action's shop) holds no pooled connection, transaction or lock while it answers. The lock, the state
// checks and the kind's revalidate under it come after, as before.
import { proposalStatus } from "@/lib/domain/proposal-state";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a kind's revalidateOutside reads of a proposal: its tenant, kind and hashed params. */
export type OutsideProposal = { id: string; tenantId: string; kind: string; params: unknown };

/** The tenant's proposal in one of `statuses`, unlocked; null when there is none (the locked path answers why). */
export async function unlockedProposal(
  tenantId: string | null,
  proposalId: string,
  statuses: readonly string[],
): Promise<OutsideProposal | null> {
  if (!UUID.test(proposalId)) return null; // the locked path refuses it with its own answer
  const [row] = (
    await sql<OutsideProposal>`SELECT id::text AS id, "tenantId"::text AS "tenantId", kind, params FROM "Proposal"
      WHERE id = ${proposalId}::uuid AND status::text = ANY(${statuses}::text[])
        AND (${tenantId}::uuid IS NULL OR "tenantId" = ${tenantId}::uuid)`.execute(sqlPool())
  ).rows;
  return row ?? null;
}

/**
 * For a decision on a proposal awaiting approval (a reviewer's approval, a customer's confirmation): its kind's look
 * outside, or undefined (the kind has none, or the tenant has no such proposal awaiting approval). The registry is
 * imported when asked: the kinds' executors import this file, so a static import would be a cycle.
 */
export async function decisionOutside(tenantId: string, proposalId: string): Promise<unknown> {
  const p = await unlockedProposal(tenantId, proposalId, [proposalStatus.pendingApproval]);
  if (!p) return undefined;
  const { kindBehaviourOf } = await import("@/lib/actions/registry.server");
  return kindBehaviourOf(p.kind)?.revalidateOutside?.(p);
}
