import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import {
  diffPolicy,
  needsSecondAdmin,
  storedPolicyValues,
  type PolicyChange,
  type PolicyValues,
} from "@/lib/domain/policy";
import { policyValuesSchema, proposePolicyInput } from "@/lib/schemas/admin";
import type { Actor } from "@/lib/server/auth/actor";
import { requireStepUp } from "@/lib/server/auth/require-step-up";
import { recordAdminEvent } from "../admin-audit";
import { hasIndependentAdmin } from "../admin-change-store";
import { singleAdminMessage } from "@/lib/domain/admin-governance";
import { parseForm } from "../zod-problem";
import { applyVersion, ensureActiveVersion, lockTenantPolicy, supersedeActive } from "./policy-store";
import { transaction } from "@/lib/server/db/transaction";

export type ProposePolicyResult = {
  version: number;
  status: "active" | "awaiting_second_admin";
  changes: PolicyChange[];
};

/**
 * A policy change = a new immutable version N+1 of the tenant's policy (the given values over the active
 * ones). Tightening only: active at once (new proposals carry N+1). Loosening any control: it waits for a
 * second admin (approvePolicyChange), and only one change may wait at a time. Step-up required. Audited
 * with before → after and both version numbers.
 */
export async function proposePolicyChange(actor: Actor, raw: unknown): Promise<ProposePolicyResult> {
  assertCan(actor.roles, "admin:manage");
  const input = parseForm(proposePolicyInput, raw);
  await requireStepUp(actor, input.stepUpPassword);
  return transaction(async (tx) => {
    await lockTenantPolicy(tx, actor.tenantId);
    const active = await ensureActiveVersion(tx, actor.tenantId);
    const before = policyValuesSchema.parse(storedPolicyValues(active.values));
    const after: PolicyValues = { ...before, ...input.values };
    const changes = diffPolicy(before, after);
    if (changes.length === 0)
      throw new AppError("invalid_arguments", "Nothing changes: these are the active values.", {
        problem: "no_change",
      });
    const waiting = await tx.policyVersion.findFirst({
      where: { tenantId: actor.tenantId, status: "awaiting_second_admin" },
      select: { version: true },
    });
    const loosens = needsSecondAdmin(changes);
    if (loosens && !(await hasIndependentAdmin(tx, actor.tenantId, actor.userId)))
      throw new AppError("permission_denied", singleAdminMessage(actor.tenantSlug), { reason: "no_second_admin" });
    if (loosens && waiting) {
      throw new AppError(
        "permission_denied",
        `Version ${waiting.version} already waits for a second admin; approve or reject it first.`,
        {
          reason: "change_pending",
          version: waiting.version,
        },
      );
    }
    const last = await tx.policyVersion.aggregate({ where: { tenantId: actor.tenantId }, _max: { version: true } });
    const version = (last._max.version ?? 0) + 1;
    const status = loosens ? ("awaiting_second_admin" as const) : ("active" as const);
    if (!loosens) {
      // A loosening change waiting on the old base would undo this tightening: it goes stale.
      if (waiting)
        await tx.policyVersion.updateMany({
          where: { tenantId: actor.tenantId, status: "awaiting_second_admin" },
          data: { status: "rejected", decidedAt: new Date() },
        });
      await supersedeActive(tx, actor.tenantId);
    }
    await tx.policyVersion.create({
      data: {
        tenantId: actor.tenantId,
        version,
        values: after,
        basedOnVersion: active.version,
        status,
        createdById: actor.userId,
        decidedAt: loosens ? null : new Date(),
      },
    });
    if (!loosens) await applyVersion(tx, actor.tenantId, version, after);
    await recordAdminEvent(tx, actor, {
      action: "propose_policy",
      target: { kind: "policy", version, basedOnVersion: active.version },
      before: { version: active.version, values: before },
      after: { version, status, values: after, changes },
      clear: ["basedOnVersion", "changes", "field", "direction", ...Object.keys(after)],
    });
    return { version, status, changes };
  });
}
