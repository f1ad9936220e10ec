import "server-only";
import { createHash } from "node:crypto";
import { AppError } from "@/lib/domain/outcome";
import type { IntegrationScope } from "@/lib/schemas/orders-api";
import { db } from "@/lib/server/db/client";

/** The shop system behind an Orders API request: its key and tenant. */
export type IntegrationCaller = { keyId: string; tenantId: string; tenantSlug: string; scopes: string[] };

const BEARER = /^Bearer\s+(igk_[A-Za-z0-9_-]{20,100})$/i;

export function hashIntegrationKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/**
 * `Authorization: Bearer <integration key>` → the caller, or `unauthenticated` (401: missing, malformed,
 * unknown, revoked, expired, tenant inactive — one answer, so a caller learns nothing about which) or
 * `permission_denied` (403: the key lacks `scope`). The key is looked up by its SHA-256 only.
 */
export async function authenticateIntegrationKey(
  authorization: string | null,
  scope: IntegrationScope,
  now = new Date(),
): Promise<IntegrationCaller> {
  const m = authorization?.trim().match(BEARER);
  const refused = new AppError("unauthenticated", "A valid integration key is required: Authorization: Bearer igk_…");
  if (!m) throw refused;
  const row = await db().integrationKey.findUnique({
    where: { keyHash: hashIntegrationKey(m[1]!) },
    select: {
      id: true,
      tenantId: true,
      scopes: true,
      revokedAt: true,
      expiresAt: true,
      tenant: { select: { slug: true, active: true } },
    },
  });
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= now) || !row.tenant.active) throw refused;
  if (!row.scopes.includes(scope))
    throw new AppError("permission_denied", `This integration key lacks the scope ${scope}.`, {
      reason: "scope",
      scope,
    });
  // When it was last used, for the admins' list: at most once a minute per key, so busy keys do not queue on their row.
  await db().integrationKey.updateMany({
    where: { id: row.id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - 60_000) } }] },
    data: { lastUsedAt: now },
  });
  return { keyId: row.id, tenantId: row.tenantId, tenantSlug: row.tenant.slug, scopes: row.scopes };
}
