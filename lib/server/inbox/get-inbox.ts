import "server-only";
import { cache } from "react";
import { assertCan, can } from "@/lib/domain/permissions";
import { proposalStatus } from "@/lib/domain/proposal-state";
import type { AdminChangeItem, InDoubtItem, Inbox, SecondApprovalItem } from "@/lib/schemas/inbox-dto";
import { db } from "@/lib/server/db/client";
import type { Actor } from "@/lib/server/auth/actor";
import { listAdminChangesAwaiting } from "@/lib/server/admin/count-pending-admin-changes";
import { getExecutionOverview } from "@/lib/server/executions/get-execution-overview";
import { countPendingProposals } from "@/lib/server/proposals/count-pending-proposals";

/** Lines per section: the inbox is a to-do list, not a search; its count says how many there are in all. */
export const INBOX_SECTION_LIMIT = 50;

/**
 * "Waiting for you" (docs/design.md "Inbox"), one section per role the viewer has:
 * - reviewers: two-approval proposals that another reviewer approved, that this reviewer may approve second —
 *   still pending and unexpired, not already approved by them, not requested (re-prepared, edited) by them: the
 *   approval rules of approve-proposal.ts, so nobody is asked to do what would be refused; plus how many
 *   proposals await a first decision in the queue;
 * - admins: admin changes and policy loosenings for which their approval would count (not their own);
 * - ops: refunds in doubt now (the executions overview's one definition).
 * Tenant in every `where`; reads only.
 */
export async function getInbox(actor: Actor): Promise<Inbox> {
  assertCan(actor.roles, "inbox:read");
  const [secondApprovals, pending, adminChanges, inDoubt] = await Promise.all([
    can(actor.roles, "proposal:decide") ? listSecondApprovals(actor) : null,
    can(actor.roles, "proposal:decide") ? countPendingProposals(actor) : null,
    can(actor.roles, "admin:manage") ? listAdminChanges(actor) : null,
    can(actor.roles, "executions:reconcile") ? listInDoubt(actor) : null,
  ]);
  return {
    count: (secondApprovals?.total ?? 0) + (adminChanges?.length ?? 0) + (inDoubt?.total ?? 0),
    secondApprovals: secondApprovals?.items ?? null,
    pending,
    adminChanges: adminChanges?.slice(0, INBOX_SECTION_LIMIT) ?? null,
    inDoubt: inDoubt?.items ?? null,
  };
}

/**
 * Every proposal waiting for this reviewer's second approval is counted (the badge must not stop at a page);
 * only the first INBOX_SECTION_LIMIT are read in full. A proposal already holding all its approvals (about to
 * move on) is not waiting: `approvals < requiredApprovals` compares two columns, so it is checked here on the
 * narrow list of ids, not in the `where`.
 */
async function listSecondApprovals(actor: Actor): Promise<{ total: number; items: SecondApprovalItem[] }> {
  const waiting = (
    await db().proposal.findMany({
      where: {
        tenantId: actor.tenantId,
        status: proposalStatus.pendingApproval,
        expiresAt: { gt: new Date() },
        requiredApprovals: { gt: 1 },
        // Someone approved already, and it was not this reviewer (one person never gives two approvals).
        approvals: { some: { tenantId: actor.tenantId }, none: { approverId: actor.userId } },
        // Nobody approves what they requested, re-prepared or edited (a NULL requester is an agent's proposal).
        OR: [{ requestedByStaffId: null }, { requestedByStaffId: { not: actor.userId } }],
      },
      select: {
        id: true,
        requiredApprovals: true,
        _count: { select: { approvals: { where: { tenantId: actor.tenantId } } } },
      },
      orderBy: [{ expiresAt: "asc" }, { id: "asc" }],
    })
  ).filter((p) => p._count.approvals < p.requiredApprovals);
  const firstIds = waiting.slice(0, INBOX_SECTION_LIMIT).map((p) => p.id);
  const rows = await db().proposal.findMany({
    where: { tenantId: actor.tenantId, id: { in: firstIds } },
    select: {
      id: true,
      kind: true,
      orderNumber: true,
      amountMinor: true,
      currency: true,
      requiredApprovals: true,
      expiresAt: true,
      order: { select: { number: true } },
      approvals: {
        where: { tenantId: actor.tenantId },
        select: { approver: { select: { name: true } } },
        orderBy: { createdAt: "asc" },
      },
    },
    orderBy: [{ expiresAt: "asc" }, { id: "asc" }],
  });
  return {
    total: waiting.length,
    items: rows.map((p) => ({
      proposalId: p.id,
      kind: p.kind,
      orderNumber: p.order?.number ?? p.orderNumber ?? "—",
      amountMinor: p.amountMinor,
      currency: p.currency?.trim() ?? null,
      approvals: p.approvals.length,
      requiredApprovals: p.requiredApprovals,
      approvedBy: p.approvals.map((a) => a.approver.name),
      expiresAt: p.expiresAt.toISOString(),
    })),
  };
}

async function listAdminChanges(actor: Actor): Promise<AdminChangeItem[]> {
  const waiting = await listAdminChangesAwaiting({ tenantId: actor.tenantId, staffUserId: actor.userId });
  const ids = [...new Set(waiting.flatMap((w) => (w.proposedById ? [w.proposedById] : [])))];
  const names = new Map(
    (
      await db().staffUser.findMany({
        where: { tenantId: actor.tenantId, id: { in: ids } },
        select: { id: true, name: true },
      })
    ).map((s) => [s.id, s.name]),
  );
  return waiting.map((w) => ({
    id: w.id,
    kind: w.kind,
    what: w.what,
    version: w.version,
    proposedBy: w.proposedById ? (names.get(w.proposedById) ?? null) : null,
    proposedAt: w.proposedAt.toISOString(),
    expiresAt: w.expiresAt?.toISOString() ?? null,
  }));
}

async function listInDoubt(actor: Actor): Promise<{ total: number; items: InDoubtItem[] }> {
  const overview = await getExecutionOverview(actor);
  return {
    total: overview.counters.inDoubt,
    items: overview.inDoubt.map((r) => ({
      executionId: r.id,
      proposalId: r.proposalId,
      kind: r.kind,
      orderNumber: r.orderNumber,
      amountMinor: r.amountMinor,
      currency: r.currency,
      why: r.why,
      since: r.createdAt,
    })),
  };
}

/**
 * getInbox once per server request: the dashboard layout (its badge and the queue's pending count) and the
 * Inbox page read the same answer instead of computing it twice (React's request cache; outside a render,
 * e.g. in a route handler, it simply calls through).
 */
export const getInboxForRequest = cache(getInbox);
