import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { inviteStaffInput } from "@/lib/schemas/admin";
import type { Actor } from "@/lib/server/auth/actor";
import { requireStepUp } from "@/lib/server/auth/require-step-up";
import { db } from "@/lib/server/db/client";
import { Prisma } from "@/lib/server/db/generated/client";
import { recordAdminEvent } from "./admin-audit";
import { issueSetupToken } from "./setup-token";
import { parseForm } from "./zod-problem";

/**
 * Invites a person to the admin's tenant: a staff row without a password and a one-time setup link
 * (24 h, single use, stored as a hash) that is returned once, to be shown to the admin. The person
 * sets a password through the link (app/(auth)/setup). Audited as `admin:invite_staff`.
 */
export async function inviteStaff(actor: Actor, raw: unknown): Promise<{ id: string; setupUrl: string; expiresAt: Date }> {
  assertCan(actor.roles, "admin:manage");
  const input = parseForm(inviteStaffInput, raw);
  await requireStepUp(actor, input.stepUpPassword);
  try {
    return await db().$transaction(async (tx) => {
      const user = await tx.staffUser.create({ data: { tenantId: actor.tenantId, email: input.email, name: input.name, roles: input.roles } });
      const link = await issueSetupToken(tx, { tenantId: actor.tenantId, staffUserId: user.id, createdById: actor.userId });
      await recordAdminEvent(tx, actor, {
        action: "invite_staff",
        target: { kind: "staff", id: user.id, email: input.email },
        after: { roles: input.roles, disabled: false, expiresAt: link.expiresAt.toISOString() },
      });
      return { id: user.id, setupUrl: link.setupUrl, expiresAt: link.expiresAt };
    });
  } catch (error) {
    // The email is the sign-in name, unique across tenants. The message does not say which tenant has it.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new AppError("invalid_arguments", "This email cannot be invited: it already belongs to an account.", { field: "email", problem: "taken" });
    }
    throw error;
  }
}
