import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { keyListColumns, keyListEntry } from "@/lib/server/admin/key-list";

/** The integration keys of the admin's tenant: label, prefix, scopes, validity and status. Never the hash. */
export async function listIntegrationKeys(actor: Actor, now = new Date()) {
  assertCan(actor.roles, "admin:manage");
  const keys = await db().integrationKey.findMany({
    where: { tenantId: actor.tenantId },
    orderBy: { createdAt: "asc" },
    select: { ...keyListColumns, scopes: true },
  });
  return { keys: keys.map((k) => ({ ...keyListEntry(k, now), scopes: k.scopes })) };
}
