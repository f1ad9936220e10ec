import "server-only";
import { db } from "@/lib/server/db/client";
import { assertCan } from "@/lib/domain/permissions";
import { AppError } from "@/lib/domain/outcome";
import type { Actor } from "@/lib/server/auth/actor";
import { staffSummarySelect } from "./list-staff";
import { isUuid } from "@/lib/domain/validation";

/** One staff member of the actor's tenant. Another tenant's member is simply not found. */
export async function getStaffMember(actor: Actor, id: string) {
  assertCan(actor.roles, "admin:manage");
  if (!isUuid(id)) throw new AppError("not_found", "No such staff member.");
  const member = await db().staffUser.findFirst({
    where: { id, tenantId: actor.tenantId },
    select: { ...staffSummarySelect, createdAt: true, locale: true },
  });
  if (!member) throw new AppError("not_found", "No such staff member.");
  return member;
}
