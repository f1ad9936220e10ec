import "server-only";
import { proposalStatus } from "@/lib/domain/proposal-state";
import type { Tx } from "@/lib/server/db/client";
import { sqlOf, sql } from "@/lib/server/db/sql";
import { recordStaffEvent } from "@/lib/server/audit/record-event";
import { buildProposal } from "./build-proposal";

type Old = {
  id: string;
  tenantId: string;
  orderId: string;
  customerId: string;
  channelId: string | null;
  endUserId: string | null;
  reason: string;
  traceId: string;
};

export type SupersedeResult =
  | { ok: true; proposal: { id: string; hash: string; amountMinor: number } }
  | { ok: false; reason: "nothing_left_to_refund" | "no_payment" | "already_superseded" | "another_pending" };

/**
 * Makes the proposal that replaces `old` through the one builder (amount = min(wanted, what is left to
 * refund now), recipient, expiry, approvals and hash from current data), with `supersedesId` = old. The staff member who makes it is its requester, so they can
 * never approve it. The caller holds the old proposal's row lock and has already closed it; this
 * locks the order row so it cannot race prepare_refund.
 */
export async function createSupersedingProposal(
  tx: Tx,
  old: Old,
  opts: { wantedMinor: number; requestedByStaffId: string; now: Date },
): Promise<SupersedeResult> {
  if (await tx.proposal.findUnique({ where: { supersedesId: old.id }, select: { id: true } }))
    return { ok: false, reason: "already_superseded" };
  const [order] = (
    await sql<{ id: string; currency: string; capturedMinor: number }>`
    SELECT "id", "currency", "capturedMinor" FROM "Order" WHERE "id" = ${old.orderId}::uuid AND "tenantId" = ${old.tenantId}::uuid FOR UPDATE`.execute(
      sqlOf(tx),
    )
  ).rows;
  if (!order) return { ok: false, reason: "no_payment" };
  if (
    await tx.proposal.findFirst({
      where: { orderId: order.id, status: proposalStatus.pendingApproval },
      select: { id: true },
    })
  )
    return { ok: false, reason: "another_pending" };
  const built = await buildProposal(sqlOf(tx), {
    tenantId: old.tenantId,
    order,
    customerId: old.customerId,
    reason: old.reason,
    requester: { staffId: opts.requestedByStaffId },
    channelId: old.channelId,
    endUserId: old.endUserId,
    // The same trace: the auditor sees the whole story, v1 and v2.
    traceId: old.traceId,
    supersedesId: old.id,
    wantedMinor: opts.wantedMinor,
    now: opts.now,
  });
  if (!built.ok) return built;
  return {
    ok: true,
    proposal: { id: built.proposal.id, hash: built.proposal.hash, amountMinor: built.proposal.amountMinor },
  };
}

/** The audit event of a supersede (edit or re-prepare): the new proposal, and what it replaces. */
export async function recordSupersede(
  tx: Tx,
  actor: { tenantId: string; userId: string; authMethod: string },
  action: "proposal:edit" | "proposal:reprepare",
  old: { id: string; hash: string; amountMinor: number; traceId: string },
  made: { id: string; hash: string; amountMinor: number },
): Promise<void> {
  await recordStaffEvent(sqlOf(tx), actor, {
    traceId: old.traceId,
    action,
    outcome: "approval_required",
    proposal: { id: made.id, hash: made.hash },
    data: {
      supersedes: old.id,
      supersedesHash: old.hash,
      amountMinor: made.amountMinor,
      previousAmountMinor: old.amountMinor,
    },
    redaction: { clear: ["supersedes", "supersedesHash", "amountMinor", "previousAmountMinor"] },
  });
}
