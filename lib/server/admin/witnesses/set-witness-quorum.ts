import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { isWitnessPolicyLoosening, witnessPolicyProblem } from "@/lib/domain/admin-governance";
import { assertCan } from "@/lib/domain/permissions";
import { witnessPolicyInput } from "@/lib/schemas/admin";
import type { Actor } from "@/lib/server/auth/actor";
import { type Tx } from "@/lib/server/db/client";
import { recordAdminEvent } from "../admin-audit";
import { assertMoved } from "../tenant-row";
import { lockTenantStaff, queueAdminChange, type QueuedAdminChange } from "../admin-change-store";
import { parseForm } from "../zod-problem";
import { requireStepUp } from "@/lib/server/auth/require-step-up";
import { transaction } from "@/lib/server/db/transaction";

export type QuorumSet = { status: "applied"; quorum: number };

/**
 * Writes the quorum, guarded on the value it replaces (no read-then-write), and checked against the number
 * of witnesses — both read under the tenant's lock. Audited as `admin:set_witness_quorum`.
 */
async function applyQuorum(tx: Tx, actor: Actor, before: number, quorum: number, change?: string): Promise<void> {
  const witnesses = await tx.auditWitness.count({ where: { tenantId: actor.tenantId } });
  const problem = witnessPolicyProblem(witnesses, quorum);
  if (problem) throw new AppError("invalid_arguments", problem, { field: "quorum", problem: "above_witnesses" });
  const moved = await tx.tenant.updateMany({
    where: { id: actor.tenantId, witnessQuorum: before },
    data: { witnessQuorum: quorum },
  });
  assertMoved(
    moved,
    "The quorum changed since this was proposed; reload and try again.",
    change ? "stale" : "conflict",
  );
  await recordAdminEvent(tx, actor, {
    action: "set_witness_quorum",
    target: { kind: "witness_policy", ...(change ? { change } : {}) },
    before: { quorum: before },
    after: { quorum },
    clear: ["quorum", "change"],
  });
}

/**
 * Sets how many of the tenant's witnesses must cosign a checkpoint (PUT /api/admin/witness-policy). Raising
 * it (or keeping it) tightens the policy and applies at once; lowering it loosens it and waits for a second
 * admin (AdminChange witness_policy; the approval applies it with applyApprovedQuorum).
 */
export async function setWitnessQuorum(actor: Actor, raw: unknown): Promise<QuorumSet | QueuedAdminChange> {
  assertCan(actor.roles, "admin:manage");
  const { quorum, stepUpPassword } = parseForm(witnessPolicyInput, raw);
  await requireStepUp(actor, stepUpPassword);
  return transaction(async (tx) => {
    await lockTenantStaff(tx, actor.tenantId);
    const before = (
      await tx.tenant.findUniqueOrThrow({ where: { id: actor.tenantId }, select: { witnessQuorum: true } })
    ).witnessQuorum;
    if (!isWitnessPolicyLoosening({ quorum: before }, { op: "set_quorum", quorum })) {
      await applyQuorum(tx, actor, before, quorum);
      return { status: "applied" as const, quorum };
    }
    return queueAdminChange(tx, actor, {
      kind: "witness_policy",
      targetId: null,
      payload: { change: { op: "set_quorum", quorum }, before: { quorum: before } },
      target: { kind: "witness_policy" },
      before: { quorum: before },
    });
  });
}

/** Applies an approved lowering in the deciding transaction: the quorum must still be what it was when proposed. */
export function applyApprovedQuorum(
  tx: Tx,
  actor: Actor,
  payload: { change: { quorum: number }; before: { quorum: number } },
  change: string,
) {
  return applyQuorum(tx, actor, payload.before.quorum, payload.change.quorum, change);
}
