import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import type { ActionEndpointView } from "@/lib/schemas/action-endpoint";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { secretsKeys } from "@/lib/server/env";

export type { ActionEndpointView } from "@/lib/schemas/action-endpoint";

/** The admin's view of the tenant's action endpoint (docs/action-endpoint.md): the URL and the secret's hint, never the secret. */
export async function getActionEndpoint(actor: Actor): Promise<ActionEndpointView> {
  assertCan(actor.roles, "admin:manage");
  const row = await db().actionEndpoint.findUnique({
    where: { tenantId: actor.tenantId },
    select: { url: true, secretHint: true, updatedAt: true, previousSecretUntil: true },
  });
  const now = new Date();
  return {
    configured: row !== null,
    url: row?.url ?? null,
    secretHint: row?.secretHint ?? null,
    updatedAt: row?.updatedAt.toISOString() ?? null,
    // Only while it still signs: an overlap that ended is history.
    previousSecretUntil:
      row?.previousSecretUntil && row.previousSecretUntil > now ? row.previousSecretUntil.toISOString() : null,
    canStore: secretsKeys().current !== null,
  };
}
