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

/** A bulk-message policy change as the second admin reads it: every control it changes, before → after. */
function describeBulkPolicyChange(c: BulkPolicyChange): string {
  const shown = (v: string | number | null) => (v === null ? "none" : String(v));
  return BULK_POLICY_CONTROLS.filter((k) => c.after[k] !== c.before[k])
    .map((k) => `${k} ${shown(c.before[k])} → ${shown(c.after[k])}`)
    .join("; ");
}

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
    const pending = rows.map((r): PendingAdminChange => {
      const invite = r.kind === "invite_staff" ? (r.payload as { email: string; name: string; roles: string[] }) : null;
      const witness =
        r.kind === "witness_policy" ? (r.payload as { change: WitnessPolicyChange; before: { quorum: number } }) : null;
      const confirmation =
        r.kind === "confirmation_policy" ? (r.payload as { kinds: string[]; before: { kinds: string[] } }) : null;
      const bulk = r.kind === "bulk_message_policy" ? (r.payload as BulkPolicyChange) : null;
      const person = r.targetId ? people.get(r.targetId) : undefined;
      const listed = (kinds: string[]) => (kinds.length ? kinds.join(", ") : "none");
      return {
        id: r.id,
        kind: r.kind,
        what: describeAdminChange(r.kind, r.payload),
        // A witness-policy change concerns no account: the "account" column names the witness or the quorum step.
        target: invite
          ? { id: null, name: invite.name, email: invite.email, roles: invite.roles }
          : witness
            ? {
                id: null,
                name: "witness policy",
                email:
                  witness.change.op === "remove_witness"
                    ? witness.change.name
                    : `quorum ${witness.before.quorum} → ${witness.change.op === "set_quorum" ? witness.change.quorum : "?"}`,
                roles: [],
              }
            : confirmation
              ? {
                  id: null,
                  name: "customer confirmation",
                  email: `${listed(confirmation.before.kinds)} → ${listed(confirmation.kinds)}`,
                  roles: [],
                }
              : bulk
                ? { id: null, name: "bulk-message policy", email: describeBulkPolicyChange(bulk), roles: [] }
                : {
                    id: r.targetId,
                    name: person?.name ?? "?",
                    email: person?.email ?? "?",
                    roles: person?.roles ?? [],
                  },
        proposedBy: { id: r.proposedById, name: people.get(r.proposedById)?.name ?? "?" },
        createdAt: r.createdAt,
        expiresAt: r.expiresAt,
        mine: r.proposedById === actor.userId,
        approvalRefusal: me
          ? approverRefusal(me, { proposedById: r.proposedById, proposedAt: r.createdAt })
          : "not_admin",
      };
    });
    const alone = !admins.some((a) => approverRefusal(a, { proposedById: actor.userId, proposedAt: now }) === null);
    return { pending, alone };
  });
}
