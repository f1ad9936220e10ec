import "server-only";
import { approverRefusal, describeAdminChange, type AdminChangeWhat } from "@/lib/domain/admin-governance";
import { db } from "@/lib/server/db/client";
import { provenanceSelect } from "./admin-change-store";

/** One change that waits for this admin's decision (an inbox line). */
export type AdminChangeAwaiting = {
  id: string;
  /** An admin-level staff change (AdminChange) or a policy loosening (PolicyVersion awaiting a second admin). */
  kind: "admin_change" | "policy_change";
  /** What it does (admin changes; a policy change lists nothing here: its version says it). */
  what: AdminChangeWhat[];
  /** The policy version number (policy changes). */
  version: number | null;
  proposedById: string | null;
  proposedAt: Date;
  /** When an admin change lapses (policy versions do not). */
  expiresAt: Date | null;
};

/**
 * The changes that wait for this admin's decision, oldest first: unexpired pending admin changes and policy
 * loosenings of the tenant that this admin could approve (not their own, and their approval would count —
 * lib/domain/admin-governance.ts approverRefusal). Empty for someone who is not an enabled admin. Tenant in
 * every `where`; reads only.
 */
export async function listAdminChangesAwaiting(input: {
  tenantId: string;
  staffUserId: string;
}): Promise<AdminChangeAwaiting[]> {
  const { tenantId, staffUserId } = input;
  const me = await db().staffUser.findFirst({ where: { id: staffUserId, tenantId }, select: provenanceSelect });
  if (!me || me.disabled || !me.roles.includes("admin")) return [];
  const [changes, policies] = await Promise.all([
    db().adminChange.findMany({
      where: { tenantId, status: "pending", expiresAt: { gt: new Date() } },
      select: { id: true, kind: true, payload: true, proposedById: true, createdAt: true, expiresAt: true },
      orderBy: { createdAt: "asc" },
      take: 1000,
    }),
    db().policyVersion.findMany({
      where: { tenantId, status: "awaiting_second_admin" },
      select: { id: true, version: true, createdById: true, createdAt: true },
      orderBy: { createdAt: "asc" },
    }),
  ]);
  const waiting: AdminChangeAwaiting[] = [
    ...changes.map((c) => ({
      id: c.id,
      kind: "admin_change" as const,
      what: describeAdminChange(c.kind, c.payload),
      version: null,
      proposedById: c.proposedById,
      proposedAt: c.createdAt,
      expiresAt: c.expiresAt,
    })),
    ...policies.map((p) => ({
      id: p.id,
      kind: "policy_change" as const,
      what: [],
      version: p.version,
      proposedById: p.createdById,
      proposedAt: p.createdAt,
      expiresAt: null,
    })),
  ];
  return waiting
    .filter((w) => approverRefusal(me, w) === null)
    .sort((a, b) => a.proposedAt.getTime() - b.proposedAt.getTime());
}

/** How many changes wait for this admin's decision (listAdminChangesAwaiting's length). For a badge; reads only. */
export async function countPendingAdminChanges(input: { tenantId: string; staffUserId: string }): Promise<number> {
  return (await listAdminChangesAwaiting(input)).length;
}
