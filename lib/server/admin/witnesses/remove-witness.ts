import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import type { Actor } from "@/lib/server/auth/actor";
import { type Tx } from "@/lib/server/db/client";
import { recordAdminEvent } from "../admin-audit";
import { lockTenantStaff, queueAdminChange, type QueuedAdminChange } from "../admin-change-store";
import { isUuid } from "@/lib/domain/validation";
import { transaction } from "@/lib/server/db/transaction";

const notFound = () => new AppError("not_found", "No such witness.");

type Witness = { id: string; name: string; vkey: string; url: string };

/** The witness and the tenant's quorum, read under the tenant's lock; refused when removing it would leave fewer witnesses than the quorum. */
async function readRemovable(
  tx: Tx,
  tenantId: string,
  id: string,
): Promise<{ witness: Witness; quorum: number; count: number }> {
  const witness = await tx.auditWitness.findFirst({
    where: { id, tenantId },
    select: { id: true, name: true, vkey: true, url: true },
  });
  if (!witness) throw notFound();
  const [tenant, count] = await Promise.all([
    tx.tenant.findUniqueOrThrow({ where: { id: tenantId }, select: { witnessQuorum: true } }),
    tx.auditWitness.count({ where: { tenantId } }),
  ]);
  if (count - 1 < tenant.witnessQuorum)
    throw new AppError(
      "invalid_arguments",
      `The quorum is ${tenant.witnessQuorum}: lower it before removing a witness, or no checkpoint could meet it.`,
      {
        field: "quorum",
        problem: "below_quorum",
      },
    );
  return { witness, quorum: tenant.witnessQuorum, count };
}

/**
 * Asks to remove a witness of the admin's tenant. One fewer party whose refusal counts loosens the policy
 * (lib/domain/admin-governance.ts isWitnessPolicyLoosening), so it only waits for a second admin
 * (AdminChange witness_policy, audited `admin:propose_change`); the approval applies it
 * (applyWitnessRemoval). Refused when it would leave fewer witnesses than the quorum.
 */
export async function removeWitness(actor: Actor, id: string): Promise<QueuedAdminChange> {
  assertCan(actor.roles, "admin:manage");
  if (!isUuid(id)) throw notFound();
  return transaction(async (tx) => {
    await lockTenantStaff(tx, actor.tenantId);
    const { witness, quorum, count } = await readRemovable(tx, actor.tenantId, id);
    return queueAdminChange(tx, actor, {
      kind: "witness_policy",
      targetId: null,
      payload: {
        change: { op: "remove_witness", name: witness.name },
        witnessId: witness.id,
        before: { quorum, witnesses: count },
      },
      target: { kind: "witness", id: witness.id, name: witness.name },
      before: { quorum, witnesses: count },
    });
  });
}

/** Applies an approved removal in the deciding transaction (under the tenant's lock): gone already → stale. */
export async function applyWitnessRemoval(tx: Tx, actor: Actor, witnessId: string, change: string): Promise<void> {
  const stale = () =>
    new AppError("permission_denied", "This witness changed since the removal was proposed; reject it.", {
      reason: "stale",
    });
  let removable;
  try {
    removable = await readRemovable(tx, actor.tenantId, witnessId);
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") throw stale();
    throw error;
  }
  const gone = await tx.auditWitness.deleteMany({ where: { id: witnessId, tenantId: actor.tenantId } });
  if (gone.count !== 1) throw stale();
  await recordAdminEvent(tx, actor, {
    action: "remove_witness",
    target: { kind: "witness", id: witnessId, name: removable.witness.name, change },
    before: { vkey: removable.witness.vkey, url: removable.witness.url, witnesses: removable.count },
    after: { witnesses: removable.count - 1 },
    clear: ["name", "change", "vkey", "url", "witnesses"],
  });
}
