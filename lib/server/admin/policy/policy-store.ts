import "server-only";
import { sql, sqlOf } from "@/lib/server/db/sql";
import type { PolicyValues } from "@/lib/domain/policy";
import type { Tx } from "@/lib/server/db/client";

const DEFAULT_BUDGET = {
  maxCallsPerTrace: 50,
  maxRepeatsPerTrace: 5,
  maxErrorsPerTrace: 10,
  windowSeconds: 60,
  maxCallsPerKeyPerWindow: 600,
  maxCallsPerEndUserPerWindow: 60,
} as const;

/** Serializes policy changes of one tenant (numbering, the one-pending rule, approval against the base). */
export async function lockTenantPolicy(tx: Tx, tenantId: string): Promise<void> {
  await sql`SELECT 1 FROM pg_advisory_xact_lock(hashtext('tenant-policy'), hashtext(${tenantId}))`.execute(sqlOf(tx));
}

/** The values the product runs with now: the tenant's policy columns and its agent budget row. */
export async function readEffectivePolicy(
  tx: Tx,
  tenantId: string,
): Promise<{ version: number; values: PolicyValues }> {
  const t = await tx.tenant.findUniqueOrThrow({ where: { id: tenantId }, include: { agentPolicy: true } });
  return {
    version: t.policyVersion,
    values: {
      approvalExpiryMinutes: t.approvalExpiryMinutes,
      stepUpMinutes: t.stepUpMinutes,
      approvalSessionMinutes: t.approvalSessionMinutes,
      dualApprovalThresholdMinor: t.dualApprovalThresholdMinor,
      reviewerDailyApprovalLimitMinor: t.reviewerDailyApprovalLimitMinor,
      maxApprovalAgeMinutes: t.maxApprovalAgeMinutes,
      retentionDays: t.retentionDays,
      maxCallsPerTrace: t.agentPolicy?.maxCallsPerTrace ?? DEFAULT_BUDGET.maxCallsPerTrace,
      maxRepeatsPerTrace: t.agentPolicy?.maxRepeatsPerTrace ?? DEFAULT_BUDGET.maxRepeatsPerTrace,
      maxErrorsPerTrace: t.agentPolicy?.maxErrorsPerTrace ?? DEFAULT_BUDGET.maxErrorsPerTrace,
      rejectionCooldownMinutes: t.rejectionCooldownMinutes,
      maxCallsPerKeyPerWindow: t.agentPolicy?.maxCallsPerKeyPerWindow ?? DEFAULT_BUDGET.maxCallsPerKeyPerWindow,
      maxCallsPerEndUserPerWindow:
        t.agentPolicy?.maxCallsPerEndUserPerWindow ?? DEFAULT_BUDGET.maxCallsPerEndUserPerWindow,
      windowSeconds: t.agentPolicy?.windowSeconds ?? DEFAULT_BUDGET.windowSeconds,
      endUserTokenMaxAgeSeconds: t.endUserTokenMaxAgeSeconds,
    },
  };
}

/**
 * The tenant's active version row; a tenant created without one (the demo seed, a new tenant) gets its
 * version 1 here from the values it runs with. Call under lockTenantPolicy.
 */
export async function ensureActiveVersion(tx: Tx, tenantId: string) {
  const active = await tx.policyVersion.findFirst({ where: { tenantId, status: "active" } });
  if (active) return active;
  const { version, values } = await readEffectivePolicy(tx, tenantId);
  return tx.policyVersion.create({ data: { tenantId, version, values, status: "active" } });
}

/** The active row becomes superseded (first step of activating another one: one active row per tenant). */
export async function supersedeActive(tx: Tx, tenantId: string): Promise<void> {
  await tx.policyVersion.updateMany({ where: { tenantId, status: "active" }, data: { status: "superseded" } });
}

/**
 * Puts a version's values into effect: copied into the columns every reader uses (tenant policy, agent
 * budgets) and the tenant's policyVersion moves to it, in the caller's transaction (which has already
 * made that version's row the active one).
 */
export async function applyVersion(tx: Tx, tenantId: string, version: number, values: PolicyValues): Promise<void> {
  await tx.tenant.update({
    where: { id: tenantId },
    data: {
      policyVersion: version,
      approvalExpiryMinutes: values.approvalExpiryMinutes,
      stepUpMinutes: values.stepUpMinutes,
      approvalSessionMinutes: values.approvalSessionMinutes,
      dualApprovalThresholdMinor: values.dualApprovalThresholdMinor,
      reviewerDailyApprovalLimitMinor: values.reviewerDailyApprovalLimitMinor,
      maxApprovalAgeMinutes: values.maxApprovalAgeMinutes,
      retentionDays: values.retentionDays,
      rejectionCooldownMinutes: values.rejectionCooldownMinutes,
      endUserTokenMaxAgeSeconds: values.endUserTokenMaxAgeSeconds,
    },
  });
  const budget = {
    maxCallsPerTrace: values.maxCallsPerTrace,
    maxRepeatsPerTrace: values.maxRepeatsPerTrace,
    maxErrorsPerTrace: values.maxErrorsPerTrace,
    maxCallsPerKeyPerWindow: values.maxCallsPerKeyPerWindow,
    maxCallsPerEndUserPerWindow: values.maxCallsPerEndUserPerWindow,
    windowSeconds: values.windowSeconds,
  };
  await tx.agentBudgetPolicy.upsert({ where: { tenantId }, create: { tenantId, ...budget }, update: budget });
}
