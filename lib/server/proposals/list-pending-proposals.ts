import "server-only";
import { sql, type RawBuilder } from "@/lib/server/db/sql";
import { decodeKeysetCursor, encodeKeysetCursor } from "@/lib/domain/keyset-cursor";
import { closedWithoutEffectStatuses, proposalStatus } from "@/lib/domain/proposal-state";
import { parseInput } from "@/lib/domain/validation";
import type { QueuePage, QueueRow } from "@/lib/schemas/proposal-dto";
import { statusLit } from "@/lib/server/db/status-sql";
import {
  duplicateSql,
  previousRejectionLateral,
  toPreviousRejection,
  type PreviousRejectionColumns,
} from "./review-signals";
import { assertCan } from "@/lib/domain/permissions";
import { queueFilterInput } from "@/lib/schemas/proposals";
import type { Actor } from "@/lib/server/auth/actor";
import { sqlPool } from "@/lib/server/db/pg";
import { kindSummaryOf } from "./kind-review";

export type { QueuePage, QueueRow } from "@/lib/schemas/proposal-dto";

const closedSql = statusLit(...closedWithoutEffectStatuses);
const VELOCITY_WINDOW = sql`interval '30 days'`;
const VELOCITY_COUNT = 3;

// Many refunds for this customer: refunds plus other live proposals in the window. Each count stops
// at the threshold (ORDER BY + LIMIT walks the (customerId, createdAt) index and stops), so a customer
// with thousands of rows costs no more than one with three.
const velocitySql = sql`(
  (SELECT count(*) FROM (
      SELECT 1 FROM "Refund" r JOIN "Order" ro ON ro.id = r."orderId"
       WHERE ro."tenantId" = p."tenantId" AND ro."customerId" = p."customerId" AND r."createdAt" > now() - ${VELOCITY_WINDOW}
       LIMIT ${VELOCITY_COUNT}) vr)
  + (SELECT count(*) FROM (
      SELECT 1 FROM "Proposal" q
       WHERE q."customerId" = p."customerId" AND q."tenantId" = p."tenantId" AND q.id <> p.id
         AND q."createdAt" > now() - ${VELOCITY_WINDOW} AND q.status NOT IN (${closedSql})
       ORDER BY q."createdAt" DESC
       LIMIT ${VELOCITY_COUNT}) vp)
  >= ${VELOCITY_COUNT})`;

/**
 * The tenant's proposals awaiting review, soonest expiry first, keyset-paginated on (expiresAt, id)
 * over the Proposal_queue_idx index, with the reviewer's risk flags computed for the page only.
 */
export async function listPendingProposals(actor: Actor, raw: unknown): Promise<QueuePage> {
  assertCan(actor.roles, "queue:read");
  const f = parseInput(queueFilterInput, raw ?? {}, "Invalid queue filters.");
  const conditions: RawBuilder<unknown>[] = [
    sql`p."tenantId" = ${actor.tenantId}::uuid`,
    sql`p.status = ${statusLit(proposalStatus.pendingApproval)}`,
    sql`p."expiresAt" > now()`,
  ];
  if (f.cursor) {
    const c = decodeKeysetCursor(f.cursor);
    conditions.push(sql`(p."expiresAt", p.id) > (${c.at}, ${c.id}::uuid)`);
  }
  if (f.channel) conditions.push(sql`c.slug = ${f.channel}`);
  if (f.minMinor !== undefined) conditions.push(sql`p."amountMinor" >= ${f.minMinor}`);
  if (f.maxMinor !== undefined) conditions.push(sql`p."amountMinor" <= ${f.maxMinor}`);
  if (f.flag === "two_approvals") conditions.push(sql`p."requiredApprovals" >= 2`);
  if (f.flag === "duplicate") conditions.push(duplicateSql);
  if (f.flag === "velocity") conditions.push(velocitySql);

  const rows = (
    await sql<
      Omit<
        QueueRow,
        "expiresAt" | "createdAt" | "flags" | "approvals" | "previouslyRejected" | "claim" | "approvedByMe" | "summary"
      > & {
        params: unknown;
        expiresAt: Date;
        createdAt: Date;
        approvals: bigint;
        duplicate: boolean;
        velocity: boolean;
        claimedById: string | null;
        claimedByName: string | null;
        claimUntil: Date | null;
        approvedByMe: boolean;
      } & PreviousRejectionColumns
    >`
    SELECT p.id, p.hash, p.kind, p.params, CASE WHEN p."hashVersion" >= 4 THEN p."orderNumber" ELSE o.number END AS "orderNumber", p."amountMinor", p.currency, p."recipientKind", p."recipientHolder",
           p."recipientDisplay", p.reason, c.slug AS channel, p."expiresAt", p."createdAt", p."requiredApprovals",
           (SELECT count(*) FROM "Approval" a WHERE a."proposalId" = p.id) AS approvals,
           EXISTS (SELECT 1 FROM "Approval" a WHERE a."proposalId" = p.id AND a."approverId" = ${actor.userId}::uuid) AS "approvedByMe",
           ${duplicateSql} AS duplicate,
           ${velocitySql} AS velocity,
           cs.id AS "claimedById", cs.name AS "claimedByName", p."claimExpiresAt" AS "claimUntil",
           pr.*
      FROM "Proposal" p
      LEFT JOIN "Order" o ON o.id = p."orderId"
      LEFT JOIN "Channel" c ON c.id = p."channelId"
      -- The advisory claim while it lasts (a lapsed claim simply does not join).
      LEFT JOIN "StaffUser" cs ON cs.id = p."claimedByStaffId" AND cs."tenantId" = p."tenantId" AND p."claimExpiresAt" > now()
      ${previousRejectionLateral}
     WHERE ${sql.join(conditions, sql` AND `)}
     ORDER BY p."expiresAt", p.id
     LIMIT ${f.limit + 1}`.execute(sqlPool())
  ).rows;

  const page = rows.slice(0, f.limit);
  const last = page[page.length - 1];
  return {
    rows: page.map((r) => ({
      id: r.id,
      hash: r.hash,
      kind: r.kind,
      orderNumber: r.orderNumber,
      amountMinor: r.amountMinor,
      currency: r.currency?.trim() ?? null,
      recipientKind: r.recipientKind,
      recipientHolder: r.recipientHolder,
      recipientDisplay: r.recipientDisplay,
      summary: kindSummaryOf(r.kind, r.params),
      reason: r.reason,
      channel: r.channel,
      expiresAt: r.expiresAt.toISOString(),
      createdAt: r.createdAt.toISOString(),
      approvals: Number(r.approvals),
      requiredApprovals: r.requiredApprovals,
      flags: { duplicate: r.duplicate, velocity: r.velocity, twoApprovals: r.requiredApprovals >= 2 },
      previouslyRejected: toPreviousRejection(r),
      approvedByMe: r.approvedByMe,
      claim:
        r.claimedById && r.claimUntil
          ? { by: r.claimedByName ?? "—", mine: r.claimedById === actor.userId, until: r.claimUntil.toISOString() }
          : null,
    })),
    nextCursor:
      rows.length > f.limit && last ? encodeKeysetCursor({ at: new Date(last.expiresAt), id: last.id }) : null,
  };
}
