import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import type { Actor } from "@/lib/server/auth/actor";
import { recordAdminEvent } from "./admin-audit";
import { isUuid } from "@/lib/domain/validation";
import { transaction } from "@/lib/server/db/transaction";

/**
 * Revokes an agent key of the admin's tenant. The gateway reads the key row on every call (no cache in
 * any instance), so the next call after this commit gets 401 everywhere. Revoking twice is a no-op
 * answer (`alreadyRevoked`), not an error; the guarded UPDATE keeps the first revocation time.
 */
export async function revokeAgentKey(
  actor: Actor,
  id: string,
): Promise<{ id: string; revokedAt: Date; alreadyRevoked: boolean }> {
  assertCan(actor.roles, "admin:manage");
  if (!isUuid(id)) throw new AppError("not_found", "No such agent key.");
  return transaction(async (tx) => {
    const now = new Date();
    const updated = await tx.agentKey.updateMany({
      where: { id, tenantId: actor.tenantId, revokedAt: null },
      data: { revokedAt: now },
    });
    const row = await tx.agentKey.findFirst({
      where: { id, tenantId: actor.tenantId },
      select: { id: true, name: true, keyPrefix: true, revokedAt: true, channel: { select: { slug: true } } },
    });
    if (!row) throw new AppError("not_found", "No such agent key.");
    if (updated.count === 0) return { id, revokedAt: row.revokedAt!, alreadyRevoked: true };
    await recordAdminEvent(tx, actor, {
      action: "revoke_agent_key",
      target: { kind: "agent_key", id, channel: row.channel.slug, prefix: row.keyPrefix, label: row.name },
      before: { revokedAt: null },
      after: { revokedAt: now.toISOString() },
      clear: ["prefix"],
    });
    return { id, revokedAt: now, alreadyRevoked: false };
  });
}
