import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import { listStaffInput } from "@/lib/schemas/admin";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";

/** What an admin sees of a staff member in the list and on the member's page. */
export const staffSummarySelect = {
  id: true,
  email: true,
  name: true,
  roles: true,
  disabled: true,
  lockedUntil: true,
  lastLoginAt: true,
  _count: { select: { passkeys: { where: { removedAt: null } } } },
} as const;

/**
 * Staff of the admin's tenant, optionally filtered by a search on name or email (case-insensitive), with
 * last sign-in, passkey count, lockout and whether a setup link is still pending.
 */
export async function listStaff(actor: Actor, raw: unknown = {}) {
  assertCan(actor.roles, "admin:manage");
  const q = listStaffInput.safeParse(raw).data?.q || undefined;
  const now = new Date();
  const rows = await db().staffUser.findMany({
    where: {
      tenantId: actor.tenantId,
      ...(q
        ? {
            OR: [
              { name: { contains: q, mode: "insensitive" as const } },
              { email: { contains: q, mode: "insensitive" as const } },
            ],
          }
        : {}),
    },
    orderBy: { email: "asc" },
    take: 500,
    select: {
      ...staffSummarySelect,
      passwordHash: true,
      setupTokens: { where: { usedAt: null, expiresAt: { gt: now } }, select: { expiresAt: true }, take: 1 },
    },
  });
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    name: r.name,
    roles: r.roles,
    disabled: r.disabled,
    lockedUntil: r.lockedUntil && r.lockedUntil > now ? r.lockedUntil : null,
    lastLoginAt: r.lastLoginAt,
    passkeys: r._count.passkeys,
    hasPassword: r.passwordHash !== null,
    setupPendingUntil: r.setupTokens[0]?.expiresAt ?? null,
  }));
}
export type StaffListItem = Awaited<ReturnType<typeof listStaff>>[number];
