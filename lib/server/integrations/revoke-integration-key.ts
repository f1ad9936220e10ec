import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { recordAdminEvent } from "@/lib/server/admin/admin-audit";
import type { Actor } from "@/lib/server/auth/actor";
import { isUuid } from "@/lib/domain/validation";
import { transaction } from "@/lib/server/db/transaction";

/**
 * Revokes an integration key of the admin's tenant. Every Orders API request reads the key row, so the next
 * request after this commit gets 401 on every instance. Revoking twice is a no-op (the guarded UPDATE keeps the
 * first time); another tenant's key is not found.
 */
export async function revokeIntegrationKey(
  actor: Actor,
  id: string,
  now = new Date(),
): Promise<{ id: string; alreadyRevoked: boolean }> {
  assertCan(actor.roles, "admin:manage");
  if (!isUuid(id)) throw new AppError("not_found", "No such integration key.");
  return transaction(async (tx) => {
    const updated = await tx.integrationKey.updateMany({
      where: { id, tenantId: actor.tenantId, revokedAt: null },
      data: { revokedAt: now },
    });
    const row = await tx.integrationKey.findFirst({
      where: { id, tenantId: actor.tenantId },
      select: { name: true, keyPrefix: true },
    });
    if (!row) throw new AppError("not_found", "No such integration key.");
    if (updated.count === 0) return { id, alreadyRevoked: true };
    await recordAdminEvent(tx, actor, {
      action: "revoke_integration_key",
      target: { kind: "integration_key", id, prefix: row.keyPrefix, label: row.name },
      before: { revokedAt: null },
      after: { revokedAt: now.toISOString() },
      clear: ["prefix"],
    });
    return { id, alreadyRevoked: false };
  });
}
