import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import { removeActionEndpointInput } from "@/lib/schemas/action-endpoint";
import type { Actor } from "@/lib/server/auth/actor";
import { requireStepUp } from "@/lib/server/auth/require-step-up";
import { transaction } from "@/lib/server/db/transaction";
import { recordAdminEvent } from "../admin-audit";
import { parseForm } from "../zod-problem";

/**
 * Removes the tenant's action endpoint (URL and sealed secret): no action other than a refund can be carried out
 * until one is set again. Step-up first; audited (the URL and hint removed). Removing none is not an error
 * (idempotent, not audited).
 */
export async function removeActionEndpoint(actor: Actor, raw: unknown): Promise<{ removed: boolean }> {
  assertCan(actor.roles, "admin:manage");
  const input = parseForm(removeActionEndpointInput, raw ?? {});
  await requireStepUp(actor, input.stepUpPassword);
  return transaction(async (tx) => {
    const before = await tx.actionEndpoint.findUnique({
      where: { tenantId: actor.tenantId },
      select: { url: true, secretHint: true },
    });
    if (!before) return { removed: false };
    const gone = await tx.actionEndpoint.deleteMany({ where: { tenantId: actor.tenantId } });
    if (gone.count === 0) return { removed: false };
    await recordAdminEvent(tx, actor, {
      action: "remove_action_endpoint",
      target: { kind: "action_endpoint" },
      before: { url: before.url, signingHint: before.secretHint },
      after: null,
      clear: ["url", "signingHint"],
    });
    return { removed: true };
  });
}
