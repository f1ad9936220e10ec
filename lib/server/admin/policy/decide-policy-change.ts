import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { diffPolicy, storedPolicyValues } from "@/lib/domain/policy";
import { decidePolicyInput, policyValuesSchema } from "@/lib/schemas/admin";
import type { Actor } from "@/lib/server/auth/actor";
import { requireStepUp } from "@/lib/server/auth/require-step-up";
import { recordAdminEvent } from "../admin-audit";
import { assertMoved } from "../tenant-row";
import { assertIndependentApprover } from "../admin-change-store";
import { parseForm } from "../zod-problem";
import { applyVersion, ensureActiveVersion, lockTenantPolicy, supersedeActive } from "./policy-store";
import { transaction } from "@/lib/server/db/transaction";

/**
 * A second admin approves or rejects a loosening policy change. Four eyes: the approval counts only from an
 * independent admin (lib/domain/admin-governance.ts approverRefusal: not the proposer, an admin before the
 * proposal, not invited, promoted or reset by the proposer). It must still be based on the active version (a change made since makes it stale:
 * refused). Approval activates it in the same transaction; both are audited with the versions.
 */
export async function decidePolicyChange(
  actor: Actor,
  version: number,
  decision: "approve" | "reject",
  raw: unknown = {},
): Promise<{ version: number; status: "active" | "rejected" }> {
  assertCan(actor.roles, "admin:manage");
  if (!Number.isInteger(version) || version < 1) throw new AppError("not_found", "No such policy version.");
  const input = parseForm(decidePolicyInput, raw ?? {});
  if (decision === "approve") await requireStepUp(actor, input.stepUpPassword);
  return transaction(async (tx) => {
    await lockTenantPolicy(tx, actor.tenantId);
    const row = await tx.policyVersion.findFirst({ where: { tenantId: actor.tenantId, version } });
    if (!row) throw new AppError("not_found", "No such policy version.");
    if (row.status !== "awaiting_second_admin")
      throw new AppError("permission_denied", "This version does not wait for a decision.", { reason: "not_pending" });
    // Only an independent admin's approval counts (not the proposer, nor an admin they made or reset).
    if (decision === "approve")
      await assertIndependentApprover(tx, actor, { proposedById: row.createdById, proposedAt: row.createdAt });
    const active = await ensureActiveVersion(tx, actor.tenantId);
    const now = new Date();
    if (decision === "approve" && row.basedOnVersion !== active.version) {
      throw new AppError(
        "permission_denied",
        "The policy changed since this was proposed; reject it and propose it again.",
        { reason: "stale" },
      );
    }
    const status = decision === "approve" ? ("active" as const) : ("rejected" as const);
    if (status === "active") await supersedeActive(tx, actor.tenantId);
    const moved = await tx.policyVersion.updateMany({
      where: { id: row.id, status: "awaiting_second_admin" },
      data: { status, decidedAt: now, decidedById: actor.userId },
    });
    assertMoved(moved, "This version does not wait for a decision.", "not_pending");
    const values = policyValuesSchema.parse(storedPolicyValues(row.values));
    const activeValues = policyValuesSchema.parse(storedPolicyValues(active.values));
    if (status === "active") await applyVersion(tx, actor.tenantId, version, values);
    await recordAdminEvent(tx, actor, {
      action: decision === "approve" ? "approve_policy" : "reject_policy",
      target: { kind: "policy", version, basedOnVersion: row.basedOnVersion, proposedBy: row.createdById },
      before: { version: active.version, values: activeValues },
      after: {
        version: status === "active" ? version : active.version,
        status,
        changes: diffPolicy(activeValues, values),
      },
      clear: ["basedOnVersion", "proposedBy", "changes", "field", "direction", ...Object.keys(values)],
    });
    return { version, status };
  });
}
