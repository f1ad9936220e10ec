import "server-only";
import { approverRefusal } from "@/lib/domain/admin-governance";
import { db } from "@/lib/server/db/client";
import { provenanceSelect } from "./admin-change-store";

/**
 * How many changes wait for this admin's decision: unexpired pending admin changes and policy loosenings
 * of the tenant that this admin could approve (not their own, and their approval would count). 0 for
 * someone who is not an enabled admin. For an inbox or a badge; reads only.
 */
export async function countPendingAdminChanges(input: { tenantId: string; staffUserId: string }): Promise<number> {
  const { tenantId, staffUserId } = input;
  const me = await db().staffUser.findFirst({ where: { id: staffUserId, tenantId }, select: provenanceSelect });
  if (!me || me.disabled || !me.roles.includes("admin")) return 0;
  const [changes, policies] = await Promise.all([
    db().adminChange.findMany({
      where: { tenantId, status: "pending", expiresAt: { gt: new Date() } },
      select: { proposedById: true, createdAt: true },
      take: 1000,
    }),
    db().policyVersion.findMany({ where: { tenantId, status: "awaiting_second_admin" }, select: { createdById: true, createdAt: true } }),
  ]);
  const waiting = [
    ...changes.map((c) => ({ proposedById: c.proposedById, proposedAt: c.createdAt })),
    ...policies.map((p) => ({ proposedById: p.createdById, proposedAt: p.createdAt })),
  ];
  return waiting.filter((w) => approverRefusal(me, w) === null).length;
}
