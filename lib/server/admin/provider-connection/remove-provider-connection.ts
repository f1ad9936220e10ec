import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import { removeProviderConnectionInput } from "@/lib/schemas/provider-connection";
import type { Actor } from "@/lib/server/auth/actor";
import { requireStepUp } from "@/lib/server/auth/require-step-up";
import { recordAdminEvent } from "../admin-audit";
import { parseForm } from "../zod-problem";
import { transaction } from "@/lib/server/db/transaction";

/**
 * Removes the tenant's own provider connection: its payments go back to the process-wide default connection.
 * Step-up first; audited (the hint of the key removed). Removing none is not an error (idempotent, not audited).
 */
export async function removeProviderConnection(actor: Actor, raw: unknown): Promise<{ removed: boolean }> {
  assertCan(actor.roles, "admin:manage");
  const input = parseForm(removeProviderConnectionInput, raw ?? {});
  await requireStepUp(actor, input.stepUpPassword);
  return transaction(async (tx) => {
    const gone = await tx.providerConnection.deleteMany({ where: { tenantId: actor.tenantId } });
    if (gone.count === 0) return { removed: false };
    await recordAdminEvent(tx, actor, {
      action: "remove_provider_connection",
      target: { kind: "provider_connection", provider: "stripe" },
      before: { connection: "tenant" },
      after: { connection: "default" },
      clear: ["provider", "connection"],
    });
    return { removed: true };
  });
}
