import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import type { Actor } from "@/lib/server/auth/actor";
import { requireStepUp } from "@/lib/server/auth/require-step-up";
import { db } from "@/lib/server/db/client";
import { recordAdminEvent } from "./admin-audit";
import { issueSetupToken } from "./setup-token";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A new one-time setup link for a staff member of the admin's tenant (a lost invitation, or a password
 * reset: the old password keeps working until the link is used). Voids earlier links. Step-up required:
 * whoever holds the link can set the person's password.
 */
export async function reissueSetupLink(actor: Actor, id: string, raw: { stepUpPassword?: unknown } = {}): Promise<{ setupUrl: string; expiresAt: Date }> {
  assertCan(actor.roles, "admin:manage");
  if (!UUID.test(id)) throw new AppError("not_found", "No such staff member.");
  if (id === actor.userId) throw new AppError("permission_denied", "Use your own account page to change your password.", { reason: "self" });
  await requireStepUp(actor, typeof raw.stepUpPassword === "string" ? raw.stepUpPassword : undefined);
  return db().$transaction(async (tx) => {
    const row = await tx.staffUser.findFirst({ where: { id, tenantId: actor.tenantId }, select: { id: true, email: true, disabled: true } });
    if (!row) throw new AppError("not_found", "No such staff member.");
    if (row.disabled) throw new AppError("permission_denied", "Enable the account before sending a setup link.", { reason: "disabled" });
    const link = await issueSetupToken(tx, { tenantId: actor.tenantId, staffUserId: id, createdById: actor.userId });
    await recordAdminEvent(tx, actor, {
      action: "reissue_setup_link",
      target: { kind: "staff", id, email: row.email },
      after: { expiresAt: link.expiresAt.toISOString() },
    });
    return link;
  });
}
