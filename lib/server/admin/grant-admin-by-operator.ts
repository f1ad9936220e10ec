import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { recordOperatorEvent } from "@/lib/server/audit/record-event";
import { sqlOf } from "@/lib/server/db/sql";
import { lockTenantStaff } from "./admin-change-store";
import { assertMoved } from "./tenant-row";
import { transaction } from "@/lib/server/db/transaction";

/**
 * The way out for a tenant with a single admin (who cannot grant admin alone): the operator, who holds the
 * database, grants the admin role to an existing, enabled staff member of a tenant. The grant counts from now
 * (adminSince) and names no granting admin; the operator vouches for the person (operatorGrantedAt), so their
 * approval counts even of a change proposed by the admin who invited them (lib/domain/admin-governance.ts).
 * Guarded write and its audit event (actor "operator") in one transaction.
 */
export async function grantAdminByOperator(input: {
  tenantSlug: string;
  email: string;
}): Promise<{ tenantId: string; staffId: string; roles: string[] }> {
  const email = input.email.trim().toLowerCase();
  return transaction(async (tx) => {
    const tenant = await tx.tenant.findUnique({ where: { slug: input.tenantSlug.trim() }, select: { id: true } });
    if (!tenant) throw new AppError("not_found", `No tenant with the slug "${input.tenantSlug}".`);
    await lockTenantStaff(tx, tenant.id);
    const row = await tx.staffUser.findFirst({
      where: { tenantId: tenant.id, email },
      select: { id: true, roles: true, disabled: true, sessionVersion: true },
    });
    if (!row) throw new AppError("not_found", "No staff member with this email in that tenant (invite them first).");
    if (row.disabled) throw new AppError("permission_denied", "This account is disabled.", { reason: "disabled" });
    if (row.roles.includes("admin"))
      throw new AppError("invalid_arguments", "This person is an admin already.", { problem: "already_admin" });
    const roles = [...row.roles, "admin" as const].sort();
    const now = new Date();
    const updated = await tx.staffUser.updateMany({
      where: { id: row.id, tenantId: tenant.id, sessionVersion: row.sessionVersion },
      data: {
        roles: { set: roles },
        adminSince: now,
        adminGrantedByIds: { set: [] },
        operatorGrantedAt: now,
        sessionVersion: { increment: 1 },
      },
    });
    assertMoved(updated, "This staff member changed meanwhile; run the command again.", "conflict");
    await recordOperatorEvent(sqlOf(tx), "cli", {
      tenantId: tenant.id,
      action: "admin:operator_grant_admin",
      data: {
        target: { kind: "staff", id: row.id, email },
        before: { roles: [...row.roles].sort() },
        after: { roles },
      },
      redaction: { clear: ["target", "kind", "id", "before", "after", "roles"] },
    });
    return { tenantId: tenant.id, staffId: row.id, roles };
  });
}
