import "server-only";
// Who confirms, as the tenant sets it (docs/action-kinds.md "Who confirms", docs/admin-api.md "Customer
// confirmation"): the kinds whose proposals also need the customer's confirmation (Tenant.customerConfirmationKinds).
// A kind's floor is its own (KindBehaviour.confirmation); the tenant may only raise it. Adding kinds tightens the
// policy and applies at once; dropping one loosens it and waits for a second, independent admin (AdminChange
// confirmation_policy), like lowering the witness quorum. The value is read at each prepare and hashed with the
// proposal, so a change never alters a proposal already made.
import { actionKindNames } from "@/lib/actions/registry";
import { kindBehaviourOf } from "@/lib/actions/registry.server";
import { isConfirmationPolicyLoosening } from "@/lib/domain/admin-governance";
import type { Confirmation } from "@/lib/domain/confirmation-policy";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { confirmationPolicyInput } from "@/lib/schemas/admin";
import type { Actor } from "@/lib/server/auth/actor";
import { requireStepUp } from "@/lib/server/auth/require-step-up";
import { db, type Tx } from "@/lib/server/db/client";
import { transaction } from "@/lib/server/db/transaction";
import { recordAdminEvent } from "./admin-audit";
import { lockTenantStaff, queueAdminChange, type QueuedAdminChange } from "./admin-change-store";
import { assertMoved } from "./tenant-row";
import { parseForm } from "./zod-problem";

export type ConfirmationPolicyView = {
  /** The kinds whose proposals also need the customer (sorted). */
  kinds: string[];
  /** Every registered kind and its own floor (who confirms when the tenant asks nothing more). */
  available: { kind: string; floor: Confirmation }[];
};

const floorOf = (kind: string): Confirmation => kindBehaviourOf(kind)?.confirmation?.floor ?? "reviewers";

/** The tenant's list and every kind's floor (admins). */
export async function getConfirmationPolicy(actor: Actor): Promise<ConfirmationPolicyView> {
  assertCan(actor.roles, "admin:manage");
  const t = await db().tenant.findUniqueOrThrow({
    where: { id: actor.tenantId },
    select: { customerConfirmationKinds: true },
  });
  return {
    kinds: [...t.customerConfirmationKinds].sort(),
    available: actionKindNames.map((kind) => ({ kind, floor: floorOf(kind) })),
  };
}

export type ConfirmationPolicySet = { status: "applied"; kinds: string[] };

/** Writes the list, guarded on the list it replaces (read under the tenant's lock). Audited `admin:set_confirmation_policy`. */
async function applyKinds(tx: Tx, actor: Actor, before: string[], kinds: string[], change?: string): Promise<void> {
  const moved = await tx.tenant.updateMany({
    where: { id: actor.tenantId, customerConfirmationKinds: { equals: before } },
    data: { customerConfirmationKinds: kinds },
  });
  assertMoved(
    moved,
    "Who confirms changed since this was proposed; reload and try again.",
    change ? "stale" : "conflict",
  );
  await recordAdminEvent(tx, actor, {
    action: "set_confirmation_policy",
    target: { kind: "confirmation_policy", ...(change ? { change } : {}) },
    before: { kinds: before },
    after: { kinds },
    clear: ["kinds", "change"],
  });
}

/**
 * PUT /api/admin/confirmation-policy {kinds}: the whole new list (step-up). Unknown kinds are refused; a list that
 * keeps every current kind applies at once; one that drops any waits for a second admin.
 */
export async function setConfirmationPolicy(
  actor: Actor,
  raw: unknown,
): Promise<ConfirmationPolicySet | QueuedAdminChange> {
  assertCan(actor.roles, "admin:manage");
  const { kinds, stepUpPassword } = parseForm(confirmationPolicyInput, raw);
  const unknown = kinds.filter((k) => !actionKindNames.includes(k));
  if (unknown.length > 0)
    throw new AppError("invalid_arguments", `kinds: no such action kind: ${unknown.join(", ")}.`, {
      field: "kinds",
      problem: "unknown_kind",
    });
  await requireStepUp(actor, stepUpPassword);
  return transaction(async (tx) => {
    await lockTenantStaff(tx, actor.tenantId);
    const t = await tx.tenant.findUniqueOrThrow({
      where: { id: actor.tenantId },
      select: { customerConfirmationKinds: true },
    });
    const before = t.customerConfirmationKinds;
    if (!isConfirmationPolicyLoosening(before, kinds)) {
      if (before.length !== kinds.length || before.some((k, i) => k !== kinds[i]))
        await applyKinds(tx, actor, before, kinds);
      return { status: "applied" as const, kinds };
    }
    return queueAdminChange(tx, actor, {
      kind: "confirmation_policy",
      targetId: null,
      payload: { kinds, before: { kinds: before } },
      target: { kind: "confirmation_policy" },
      before: { kinds: before },
    });
  });
}

/** Applies an approved loosening in the deciding transaction: the list must still be what it was when proposed. */
export function applyApprovedConfirmationPolicy(
  tx: Tx,
  actor: Actor,
  payload: { kinds: string[]; before: { kinds: string[] } },
  change: string,
) {
  return applyKinds(tx, actor, payload.before.kinds, payload.kinds, change);
}
