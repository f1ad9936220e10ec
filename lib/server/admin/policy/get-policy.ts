import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import { diffPolicy, storedPolicyValues, type PolicyValues } from "@/lib/domain/policy";
import type { Actor } from "@/lib/server/auth/actor";
import { ensureActiveVersion, lockTenantPolicy } from "./policy-store";
import { transaction } from "@/lib/server/db/transaction";

/** The active policy version and its values, the change awaiting a second admin (with its diff), and the history. */
export async function getPolicy(actor: Actor) {
  assertCan(actor.roles, "admin:manage");
  return transaction(async (tx) => {
    await lockTenantPolicy(tx, actor.tenantId);
    const active = await ensureActiveVersion(tx, actor.tenantId);
    const values = storedPolicyValues(active.values) as PolicyValues;
    const rows = await tx.policyVersion.findMany({
      where: { tenantId: actor.tenantId },
      orderBy: { version: "desc" },
      take: 50,
    });
    const pendingRow = rows.find((r) => r.status === "awaiting_second_admin") ?? null;
    const pending = pendingRow
      ? {
          version: pendingRow.version,
          basedOnVersion: pendingRow.basedOnVersion,
          values: storedPolicyValues(pendingRow.values) as PolicyValues,
          changes: diffPolicy(values, storedPolicyValues(pendingRow.values) as PolicyValues),
          createdById: pendingRow.createdById,
          createdAt: pendingRow.createdAt,
          mine: pendingRow.createdById === actor.userId,
        }
      : null;
    return {
      version: active.version,
      values,
      pending,
      history: rows.map((r) => ({
        version: r.version,
        status: r.status,
        basedOnVersion: r.basedOnVersion,
        createdById: r.createdById,
        decidedById: r.decidedById,
        createdAt: r.createdAt,
        decidedAt: r.decidedAt,
      })),
    };
  });
}
export type PolicyView = Awaited<ReturnType<typeof getPolicy>>;
