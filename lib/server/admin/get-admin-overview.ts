import "server-only";
import { db } from "@/lib/server/db/client";
import { assertCan } from "@/lib/domain/permissions";
import type { Actor } from "@/lib/server/auth/actor";

/**
 * The admin's own tenant (name, currency, locale) for the Administration page. Staff, channels, keys and
 * the policy have their own use cases (list-staff, list-agent-keys, policy/get-policy).
 */
export async function getAdminOverview(actor: Actor) {
  assertCan(actor.roles, "admin:manage");
  const tenant = await db().tenant.findUniqueOrThrow({ where: { id: actor.tenantId } });
  return { tenant };
}
