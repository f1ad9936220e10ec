import "server-only";
import { keyStatus } from "@/lib/domain/key-status";
import { assertCan } from "@/lib/domain/permissions";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";

/** The integration keys of the admin's tenant: label, prefix, scopes, validity and status. Never the hash. */
export async function listIntegrationKeys(actor: Actor, now = new Date()) {
  assertCan(actor.roles, "admin:manage");
  const keys = await db().integrationKey.findMany({
    where: { tenantId: actor.tenantId },
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      name: true,
      keyPrefix: true,
      scopes: true,
      expiresAt: true,
      revokedAt: true,
      lastUsedAt: true,
      createdAt: true,
    },
  });
  return { keys: keys.map(({ name, ...k }) => ({ ...k, label: name, status: keyStatus(k, now) })) };
}
