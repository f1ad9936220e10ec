import "server-only";
import { db } from "@/lib/server/db/client";
import { assertCan } from "@/lib/domain/permissions";
import type { Actor } from "@/lib/server/auth/actor";

/** Tenant policy, staff, channels and agent keys of the actor's own tenant (admins only). */
export async function getAdminOverview(actor: Actor) {
  assertCan(actor.roles, "admin:manage");
  const tenantId = actor.tenantId;
  const [tenant, staff, channels, agentKeys] = await Promise.all([
    db().tenant.findUniqueOrThrow({ where: { id: tenantId } }),
    db().staffUser.findMany({
      where: { tenantId },
      orderBy: { email: "asc" },
      select: { id: true, email: true, name: true, roles: true, disabled: true, lockedUntil: true, lastLoginAt: true },
    }),
    db().channel.findMany({ where: { tenantId }, orderBy: { slug: "asc" }, select: { id: true, slug: true, name: true, allowedTools: true } }),
    db().agentKey.findMany({
      where: { tenantId },
      orderBy: { createdAt: "asc" },
      // Never the hash: admins tell keys apart by prefix.
      select: {
        id: true,
        name: true,
        keyPrefix: true,
        allowedTools: true,
        revokedAt: true,
        lastUsedAt: true,
        createdAt: true,
        channel: { select: { slug: true } },
      },
    }),
  ]);
  return { tenant, staff, channels, agentKeys };
}
