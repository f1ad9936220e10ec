import "server-only";
import { sql } from "@/lib/server/db/sql";
import { closedWithoutEffectStatuses, proposalStatus } from "@/lib/domain/proposal-state";
import { refundStatus } from "@/lib/domain/refund-state";
import { statusLit } from "@/lib/server/db/status-sql";
import { sqlPool } from "@/lib/server/db/pg";

// What a reviewer is warned about on a proposal (alias `p` in the SQL below): a possible duplicate and a
// previous rejection of the same order. Each rule is written once here and used by the queue (per page)
// and by the detail page.

export const DUPLICATE_WINDOW = sql`interval '7 days'`;

/**
 * A real duplicate is the same customer asking again for the same order or the same amount, within the
 * window: another live proposal (not rejected, expired or invalidated), or a refund (not failed) made
 * before this proposal. Different orders with different amounts are not duplicates, and neither are the two steps
 * of one action (a cancellation and the refund that follows it, `parentId`).
 */
const liveOtherProposal = sql`
  q."customerId" = p."customerId" AND q."tenantId" = p."tenantId" AND q.id <> p.id
  AND q."createdAt" > now() - ${DUPLICATE_WINDOW} AND q.status NOT IN (${statusLit(...closedWithoutEffectStatuses)})
  AND q.id IS DISTINCT FROM p."parentId" AND q."parentId" IS DISTINCT FROM p.id`;
// Same order (the (orderId, status) index) or same amount (the (customerId, amountMinor, createdAt) index):
// two conditions, each served by its own index, instead of one OR that would walk all the customer's rows.
const sameOrderProposal = sql`q."orderId" = p."orderId" AND ${liveOtherProposal}`;
const sameAmountProposal = sql`q."amountMinor" = p."amountMinor" AND q.currency = p.currency AND ${liveOtherProposal}`;
const duplicateRefundWhere = sql`
  ro."tenantId" = p."tenantId" AND ro."customerId" = p."customerId"
  AND r."createdAt" > now() - ${DUPLICATE_WINDOW} AND r."createdAt" < p."createdAt" AND r.status <> ${statusLit(refundStatus.failed)}
  AND (r."orderId" = p."orderId" OR (r."amountMinor" = p."amountMinor" AND r.currency = p.currency))`;

/** The boolean flag (and filter) of the queue. Two EXISTS on indexed columns rather than one OR. */
export const duplicateSql = sql`(
  EXISTS (SELECT 1 FROM "Proposal" q WHERE ${sameOrderProposal})
  OR EXISTS (SELECT 1 FROM "Proposal" q WHERE ${sameAmountProposal})
  OR EXISTS (SELECT 1 FROM "Refund" r JOIN "Order" ro ON ro.id = r."orderId" WHERE ${duplicateRefundWhere}))`;

export type DuplicateOf = {
  kind: "proposal" | "refund";
  id: string;
  orderNumber: string;
  amountMinor: number;
  createdAt: string;
};
export type PreviousRejection = { proposalId: string; reason: string | null; by: string | null; at: string | null };

/** What a proposal possibly duplicates (the newest match), or null. */
export async function findDuplicateOf(proposalId: string): Promise<DuplicateOf | null> {
  const rows = (
    await sql<{ kind: "proposal" | "refund"; id: string; orderNumber: string; amountMinor: number; createdAt: Date }>`
    SELECT m.* FROM "Proposal" p,
      LATERAL (
        (SELECT 'proposal' AS kind, q.id, qo.number AS "orderNumber", q."amountMinor", q."createdAt"
           FROM "Proposal" q JOIN "Order" qo ON qo.id = q."orderId" WHERE ${sameOrderProposal} ORDER BY q."createdAt" DESC LIMIT 1)
        UNION ALL
        (SELECT 'proposal' AS kind, q.id, qo.number AS "orderNumber", q."amountMinor", q."createdAt"
           FROM "Proposal" q JOIN "Order" qo ON qo.id = q."orderId" WHERE ${sameAmountProposal} ORDER BY q."createdAt" DESC LIMIT 1)
        UNION ALL
        (SELECT 'refund' AS kind, r.id, ro.number AS "orderNumber", r."amountMinor", r."createdAt"
           FROM "Refund" r JOIN "Order" ro ON ro.id = r."orderId" WHERE ${duplicateRefundWhere} ORDER BY r."createdAt" DESC LIMIT 1)
      ) m
     WHERE p.id = ${proposalId}::uuid
     ORDER BY m."createdAt" DESC
     LIMIT 1`.execute(sqlPool())
  ).rows;
  const m = rows[0];
  return m
    ? {
        kind: m.kind,
        id: m.id,
        orderNumber: m.orderNumber,
        amountMinor: m.amountMinor,
        createdAt: m.createdAt.toISOString(),
      }
    : null;
}

/**
 * "Previously rejected": the newest rejection of a proposal for the same order made before this one —
 * the reason, the reviewer's name and when — so a re-asked refund never looks brand new. One LATERAL
 * subquery for the queue page; `findPreviousRejection` for one proposal.
 */
export const previousRejectionLateral = sql`LEFT JOIN LATERAL (
    SELECT q.id AS "rejectedId", q."rejectionReason" AS "rejectedReason", q."decidedAt" AS "rejectedAt", s.name AS "rejectedBy"
      FROM "Proposal" q LEFT JOIN "StaffUser" s ON s.id = q."rejectedByStaffId" AND s."tenantId" = q."tenantId"
     WHERE q."orderId" = p."orderId" AND q.status = ${statusLit(proposalStatus.rejected)} AND q."createdAt" < p."createdAt"
     ORDER BY q."decidedAt" DESC NULLS LAST, q.id DESC
     LIMIT 1) pr ON true`;

export type PreviousRejectionColumns = {
  rejectedId: string | null;
  rejectedReason: string | null;
  rejectedAt: Date | null;
  rejectedBy: string | null;
};

export function toPreviousRejection(r: PreviousRejectionColumns): PreviousRejection | null {
  return r.rejectedId
    ? { proposalId: r.rejectedId, reason: r.rejectedReason, by: r.rejectedBy, at: r.rejectedAt?.toISOString() ?? null }
    : null;
}

export async function findPreviousRejection(proposalId: string): Promise<PreviousRejection | null> {
  const rows = (
    await sql<PreviousRejectionColumns>`
    SELECT pr.* FROM "Proposal" p ${previousRejectionLateral} WHERE p.id = ${proposalId}::uuid`.execute(sqlPool())
  ).rows;
  return rows[0] ? toPreviousRejection(rows[0]) : null;
}
