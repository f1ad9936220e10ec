import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { invalidArguments } from "@/lib/domain/validation";
import { recordStaffEvent } from "@/lib/server/audit/record-event";
import type { AuditEventInput } from "@/lib/server/audit/record-event";
import type { Actor } from "@/lib/server/auth/actor";
import { sqlOf } from "@/lib/server/db/sql";
import type { Prisma } from "@/lib/server/db/generated/client";
import { adminTraceId } from "./admin-audit";
import { transaction } from "@/lib/server/db/transaction";

/**
 * Writes settings of the admin's own tenant and their audit event in one transaction. The tenant scope is in
 * the UPDATE's where, so an admin can only ever change their own (active) tenant.
 */
export async function updateOwnTenant(
  actor: Actor,
  data: Prisma.TenantUpdateManyMutationInput,
  event: Pick<AuditEventInput, "action" | "data" | "redaction">,
): Promise<void> {
  await transaction(async (tx) => {
    const updated = await tx.tenant.updateMany({ where: { id: actor.tenantId, active: true }, data });
    if (updated.count !== 1) throw new AppError("not_found", "Tenant not found.");
    await recordStaffEvent(sqlOf(tx), actor, { ...event, traceId: adminTraceId(), outcome: "ok" });
  });
}

/** A webhook URL the checks refused: `invalid_arguments` naming the problem, on the `url` field. */
export function webhookUrlRefused(problem: string, message: string): AppError {
  return invalidArguments(message, [{ path: "$.url", expected: "a public https URL", message }], { problem });
}
