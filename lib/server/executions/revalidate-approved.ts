import "server-only";
import { proposalStatus as P } from "@/lib/domain/proposal-state";
import type { Tx } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import { storedIntact } from "@/lib/server/proposals/proposal-guards";
import { missingConsent } from "@/lib/server/confirmations/customer-confirmation";

// Right before an approved proposal's effect, whatever its kind and executor (the payment provider, the shop's action
// endpoint): the checks every execution makes under the proposal's lock, and how a failed one ends the proposal.

/**
 * Why the approval no longer authorises the effect, or null: the tenant is inactive, the stored row no longer
 * recomputes to its hash, fewer approvals than required are bound to the current hash, or one of them is older
 * than the tenant's maximum approval age. A follow-up step (`parentId`) has no approval of its own: see
 * followUpProblem.
 */
export async function approvalProblem(
  tx: Tx,
  p: Parameters<typeof storedIntact>[0] & {
    id: string;
    tenantId: string;
    hash: string;
    requiredApprovals: number;
    confirmation: string;
    parentId?: string | null;
    tenant: { active: boolean; maxApprovalAgeMinutes: number };
  },
  now: Date,
): Promise<string | null> {
  if (!p.tenant.active) return "tenant_inactive";
  if (!storedIntact(p)) return "stored_hash_mismatch";
  if (p.parentId) return followUpProblem(tx, { ...p, parentId: p.parentId });
  // Every consent the hashed policy asks for — the reviewers' approvals and/or the customer's confirmation
  // (docs/action-kinds.md, "Who confirms") — bound to the hash and younger than the tenant's maximum age.
  const maxAgeMs = p.tenant.maxApprovalAgeMinutes * 60_000;
  const missing = await missingConsent(tx, p, { now, maxAgeMs });
  if (missing === "consent_expired") return "approval_expired";
  return missing ? "approvals_not_bound_to_hash" : null;
}

/**
 * Why a follow-up step (the refund that goes with a cancellation) is not authorised by its parent's approval, or null.
 * Its parent — in the same tenant — must have carried out its own step (`succeeded`), still recompute to its hash,
 * and hold its required approvals bound to that hash; and the parent's kind must say the follow-up is exactly what
 * its hashed params approved (KindBehaviour.followUp). The approvals' age is not checked again: it was when the
 * parent's first step began, and the second step must follow the first however long the first was in doubt.
 */
async function followUpProblem(
  tx: Tx,
  child: { id: string; tenantId: string; parentId: string },
): Promise<string | null> {
  const parent = await tx.proposal.findFirst({
    where: { id: child.parentId, tenantId: child.tenantId },
  });
  if (!parent || parent.status !== P.succeeded) return "parent_not_carried_out";
  if (!storedIntact(parent)) return "stored_hash_mismatch";
  if (await missingConsent(tx, parent)) return "approvals_not_bound_to_hash";
  // Imported when needed: the registry's kinds import this file (their executors revalidate through it).
  const { kindBehaviourOf } = await import("@/lib/actions/registry.server");
  const row = await tx.proposal.findUniqueOrThrow({ where: { id: child.id } });
  return kindBehaviourOf(parent.kind)?.followUp?.authorises(parent, row) ? null : "follow_up_not_authorised";
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
