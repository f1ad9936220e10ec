import "server-only";
import { proposalStatus as P } from "@/lib/domain/proposal-state";
import type { Tx } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import { storedIntact } from "@/lib/server/proposals/proposal-guards";

// Right before an approved proposal's effect, whatever its kind and executor (the payment provider, the shop's action
// endpoint): the checks every execution makes under the proposal's lock, and how a failed one ends the proposal.

/**
 * Why the approval no longer authorises the effect, or null: the tenant is inactive, the stored row no longer
 * recomputes to its hash, fewer approvals than required are bound to the current hash, or one of them is older
 * than the tenant's maximum approval age.
 */
export async function approvalProblem(
  tx: Tx,
  p: Parameters<typeof storedIntact>[0] & {
    id: string;
    hash: string;
    requiredApprovals: number;
    tenant: { active: boolean; maxApprovalAgeMinutes: number };
  },
  now: Date,
): Promise<string | null> {
  if (!p.tenant.active) return "tenant_inactive";
  if (!storedIntact(p)) return "stored_hash_mismatch";
  const approvals = await tx.approval.findMany({ where: { proposalId: p.id } });
  if (approvals.length < p.requiredApprovals || approvals.some((a) => a.proposalHash !== p.hash))
    return "approvals_not_bound_to_hash";
  const maxAgeMs = p.tenant.maxApprovalAgeMinutes * 60_000;
  if (approvals.some((a) => now.getTime() - a.createdAt.getTime() > maxAgeMs)) return "approval_expired";
  return null;
}

/**
 * Ends an approved proposal that failed its revalidation before anything was sent: `expired` when an approval
 * aged out (a new proposal is needed), `invalidated` with the reason otherwise; recorded in its trace.
 */
export async function endApprovedProposal(
  tx: Tx,
  p: { id: string; tenantId: string; hash: string; traceId: string },
  problem: string,
  now: Date,
): Promise<void> {
  const status = problem === "approval_expired" ? P.expired : P.invalidated;
  await tx.proposal.updateMany({
    where: { id: p.id, status: P.approved },
    data: { status, invalidationReason: problem, decidedAt: now },
  });
  await recordAuditEvent(sqlOf(tx), {
    tenantId: p.tenantId,
    traceId: p.traceId,
    actor: { type: "system", id: "worker", authMethod: "job" },
    action: "execution:revalidate",
    outcome: status,
    proposal: { id: p.id, hash: p.hash },
    data: { reason: problem },
    redaction: { clear: ["reason"] },
  });
}
