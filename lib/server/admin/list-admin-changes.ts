import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import {
  approverRefusal,
  BULK_POLICY_CONTROLS,
  describeAdminChange,
  type AdminChangeKind,
  type AdminChangeWhat,
  type ApproverRefusal,
  type WitnessPolicyChange,
} from "@/lib/domain/admin-governance";
import type { Actor } from "@/lib/server/auth/actor";
import { activeAdmins } from "./admin-change-store";
import { transaction } from "@/lib/server/db/transaction";
import type { BulkPolicyChange } from "./segments";

export type PendingAdminChange = {
  id: string;
  kind: AdminChangeKind;
  what: AdminChangeWhat[];
  /** The account concerned (for an invitation: the person invited). */
  target: { id: string | null; name: string; email: string; roles: string[] };
  proposedBy: { id: string; name: string };
  createdAt: Date;
  expiresAt: Date;
  mine: boolean;
  /** Why the viewer's approval would not count (null: it would). */
  approvalRefusal: ApproverRefusal | null;
};

type Person = { name: string; email: string; roles: string[] };

/**
 * What a pending change concerns, as the admin page's "account" column shows it: the account, or for a change that
 * concerns none (an invitation, a policy) who is invited or what moves, before → after.
 */
function targetOf(
  r: { kind: AdminChangeKind; payload: unknown; targetId: string | null },
  person: Person | undefined,
): PendingAdminChange["target"] {
  const about = (name: string, email: string) => ({ id: null, name, email, roles: [] });
  if (r.kind === "invite_staff") {
    const invite = r.payload as { email: string; name: string; roles: string[] };
    return { id: null, name: invite.name, email: invite.email, roles: invite.roles };
  }
  if (r.kind === "witness_policy") {
    const { change, before } = r.payload as { change: WitnessPolicyChange; before: { quorum: number } };
    if (change.op === "remove_witness") return about("witness policy", change.name);
    return about("witness policy", `quorum ${before.quorum} → ${change.op === "set_quorum" ? change.quorum : "?"}`);
  }
  if (r.kind === "confirmation_policy") {
    const { kinds, before } = r.payload as { kinds: string[]; before: { kinds: string[] } };
    const listed = (k: string[]) => (k.length ? k.join(", ") : "none");
    return about("customer confirmation", `${listed(before.kinds)} → ${listed(kinds)}`);
  }
  if (r.kind === "bulk_message_policy") {
    const c = r.payload as BulkPolicyChange;
    const shown = (v: string | number | null) => (v === null ? "none" : String(v));
    const moved = BULK_POLICY_CONTROLS.filter((k) => c.after[k] !== c.before[k]);
    return about(
      "bulk-message policy",
      moved.map((k) => `${k} ${shown(c.before[k])} → ${shown(c.after[k])}`).join("; "),
    );
  }
  return { id: r.targetId, name: person?.name ?? "?", email: person?.email ?? "?", roles: person?.roles ?? [] };
}

/**
 * The tenant's admin changes waiting for a second admin (unexpired), oldest first, each with whether the
 * viewing admin's approval would count; and `alone`: no other admin could approve a change the viewer
 * proposes (the admin page then says what the tenant cannot do alone).
 */
export async function listAdminChanges(actor: Actor): Promise<{ pending: PendingAdminChange[]; alone: boolean }> {
  assertCan(actor.roles, "admin:manage");
  return transaction(async (tx) => {
    const now = new Date();
    const rows = await tx.adminChange.findMany({
      where: { tenantId: actor.tenantId, status: "pending", expiresAt: { gt: now } },
      orderBy: { createdAt: "asc" },
      take: 100,
    });
    const ids = [...new Set(rows.flatMap((r) => [r.proposedById, ...(r.targetId ? [r.targetId] : [])]))];
    const people = new Map(
      (
        await tx.staffUser.findMany({
          where: { tenantId: actor.tenantId, id: { in: ids } },
          select: { id: true, name: true, email: true, roles: true },
        })
      ).map((p) => [p.id, p]),
    );
    const admins = await activeAdmins(tx, actor.tenantId);
    const me = admins.find((a) => a.id === actor.userId);
    const pending = rows.map((r): PendingAdminChange => ({
      id: r.id,
      kind: r.kind,
      what: describeAdminChange(r.kind, r.payload),
      target: targetOf(r, r.targetId ? people.get(r.targetId) : undefined),
      proposedBy: { id: r.proposedById, name: people.get(r.proposedById)?.name ?? "?" },
      createdAt: r.createdAt,
      expiresAt: r.expiresAt,
      mine: r.proposedById === actor.userId,
      approvalRefusal: me
        ? approverRefusal(me, { proposedById: r.proposedById, proposedAt: r.createdAt })
        : "not_admin",
    }));
    const alone = !admins.some((a) => approverRefusal(a, { proposedById: actor.userId, proposedAt: now }) === null);
    return { pending, alone };
  });
}
