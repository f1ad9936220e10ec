import "server-only";
import type { ToolName } from "@/lib/schemas/tools";
import { randomUUID } from "node:crypto";
import { computeProposalHash, hashInputOf, hashVersionFor, itemsOf } from "@/lib/domain/proposal-hash";
import { decideConfirmation } from "@/lib/server/confirmations/decide-confirmation";
import { proposalAmountMinor, proposalExpiresAt, requiredApprovalsFor } from "@/lib/domain/proposal-policy";
import { sql, type RawBuilder, type Sql } from "@/lib/server/db/sql";
import { type Payment, type PaymentMethod, type PaymentSource, type Proposal } from "@/lib/server/db/generated/client";
import { notifyReviewersOfProposal } from "@/lib/server/notifications/notify-reviewers";
import { metrics } from "@/lib/server/telemetry/metrics";
import { currentTraceparent } from "@/lib/server/telemetry/tracing";
import { asRefund, type AsRefund } from "@/lib/domain/refund-row";
import { proposalStatus } from "@/lib/domain/proposal-state";
import { leftOf, refundableSumsSql } from "./refundable-left";

/** Who asks for the proposal: an agent key (prepare_refund) or a staff member (re-prepare, edit). */
export type ProposalRequester = { agentKeyId: string } | { staffId: string };

export type BuildProposalInput = {
  tenantId: string;
  /** The order, locked by the caller (SELECT … FOR UPDATE) for the rest of the transaction. */
  order: { id: string; currency: string; capturedMinor: number };
  customerId: string;
  reason: string;
  requester: ProposalRequester;
  channelId: string | null;
  endUserId: string | null;
  traceId: string;
  supersedesId: string | null;
  /** Cap the amount at this (an edit lowers it); default: everything left to refund. */
  wantedMinor?: number;
  /**
   * A follow-up step of an approved parent (the refund that goes with a cancellation): stored `approved`, authorised
   * by the parent's approval (revalidate-approved.ts), never reviewed nor announced to reviewers; exactly
   * `wantedMinor` or nothing (`amount_no_longer_refundable`).
   */
  followUpOf?: { parentId: string; requiredApprovals: number };
  now: Date;
};

export type BuildProposalResult =
  | { ok: true; proposal: AsRefund<Proposal>; payment: Payment }
  | { ok: false; reason: "nothing_left_to_refund" | "no_payment" };

/** A follow-up refused: less is refundable now than its parent approved (nothing else is ever paid unreviewed). */
export type FollowUpRefused = { ok: false; reason: "amount_no_longer_refundable" };

/**
 * The one proposal builder (prepare_refund, re-prepare, edit): every number comes from the database and
 * the tenant's policy, never from the caller — amount = what is left to refund now (capped by `wantedMinor`),
 * recipient = the order's original payment as it is now, expiry and required approvals from the tenant's
 * policy, a new id, and the hash over exactly the row that is stored. The reviewer webhook delivery is
 * committed with the row. The caller holds the order's row lock and decides what the proposal supersedes.
 */
export async function buildProposal(
  tx: Sql,
  input: BuildProposalInput & { followUpOf?: undefined },
  known?: ProposalFacts,
): Promise<BuildProposalResult>;
export async function buildProposal(
  tx: Sql,
  input: BuildProposalInput,
  known?: ProposalFacts,
): Promise<BuildProposalResult | FollowUpRefused>;
export async function buildProposal(
  tx: Sql,
  input: BuildProposalInput,
  known?: ProposalFacts,
): Promise<BuildProposalResult | FollowUpRefused> {
  const { tenantId, order, now } = input;
  // Everything the builder reads, in one statement (or already read by the caller in its own, under the
  // same order lock and transaction).
  const facts = known ?? (await readProposalFacts(tx, tenantId, order.id, now));
  const { leftMinor } = leftOf(order.capturedMinor, {
    leftRefundedMinor: facts.refundedOrPendingMinor,
    leftOpenMinor: facts.openProposalsMinor,
  });
  const amountMinor = proposalAmountMinor(leftMinor, input.wantedMinor);
  if (amountMinor <= 0) return { ok: false, reason: "nothing_left_to_refund" };
  if (input.followUpOf && amountMinor !== input.wantedMinor)
    return { ok: false, reason: "amount_no_longer_refundable" };
  const followUp = input.followUpOf ?? null;
  const { payment, policy } = facts;
  if (!payment) return { ok: false, reason: "no_payment" };
  if (!facts.order) throw new Error("the locked order was not found");

  // Who must confirm: reviewers, unless the tenant asks the customer too (hash v7 binds it). A follow-up step is
  // authorised by its parent's approval and confirmed by nobody else.
  const confirmation = followUp ? "reviewers" : await decideConfirmation(tx, tenantId, "refund", null);
  const row = {
    id: randomUUID(),
    tenantId,
    // What an approval of this proposal authorizes; stored and hashed (a row whose tool is changed is not intact).
    tool: "prepare_refund" satisfies ToolName,
    kind: "refund",
    // What it acts on: the order (one pending refund per order — the unique index is per tenant, kind and subject).
    subject: { type: "order", ref: order.id },
    params: null,
    source: null,
    orderId: order.id,
    customerId: input.customerId,
    paymentId: payment.id,
    requestedByAgentKeyId: "agentKeyId" in input.requester ? input.requester.agentKeyId : null,
    requestedByStaffId: "staffId" in input.requester ? input.requester.staffId : null,
    channelId: input.channelId,
    endUserId: input.endUserId,
    amountMinor,
    currency: order.currency,
    recipientKind: payment.method,
    recipientRef: payment.providerPaymentRef,
    recipientHolder: payment.holderName,
    recipientDisplay: payment.display,
    // Hash v4: what the reviewer reads about the order, as it is now (under the order's lock); shown from here.
    hashVersion: hashVersionFor("refund", confirmation),
    confirmation,
    orderNumber: facts.order.number,
    customerName: facts.order.customerName,
    orderItems: itemsOf(facts.order.items),
    reason: input.reason,
    expiresAt: proposalExpiresAt(now, policy.approvalExpiryMinutes),
    requiredApprovals:
      followUp?.requiredApprovals ?? requiredApprovalsFor(amountMinor, policy.dualApprovalThresholdMinor),
    // The policy version these values came from (read in the same statement); hashed (hash v2).
    policyVersion: policy.policyVersion,
    // Hash v3: the snapshot the amount was derived from (the ledger as read under the order's lock).
    sourceProvider: payment.provider,
    sourceCapturedMinor: order.capturedMinor,
    sourceRefundedMinor: facts.refundedOrPendingMinor,
    supersedesId: input.supersedesId,
    traceId: input.traceId,
  };
  const hash = computeProposalHash(hashInputOf(row));
  // One raw INSERT … RETURNING (the row as Prisma's create returns it): this runs on every prepare_refund, and a
  // model query costs a query-plan compilation on top of the round trip. createdAt/updatedAt as Prisma sets them.
  const at = new Date().toISOString();
  const ts = (d: Date | null) => (d ? d.toISOString() : null);
  const {
    rows: [inserted],
  } = await sql<Proposal>`
    INSERT INTO "Proposal" ("id", "tenantId", "tool", "kind", "subject", "orderId", "customerId", "paymentId", "requestedByAgentKeyId", "requestedByStaffId", "channelId",
                            "endUserId", "amountMinor", "currency", "recipientKind", "recipientRef", "recipientHolder", "recipientDisplay", "reason",
                            "hash", "expiresAt", "requiredApprovals", "policyVersion", "sourceProvider", "sourceCapturedMinor", "sourceRefundedMinor",
                            "hashVersion", "confirmation", "orderNumber", "customerName", "orderItems", "supersedesId", "traceId", "traceparent", "createdAt", "updatedAt",
                            "parentId", "status", "decidedAt")
    VALUES (${row.id}::uuid, ${row.tenantId}::uuid, ${row.tool}, ${row.kind}, ${JSON.stringify(row.subject)}::jsonb, ${row.orderId}::uuid, ${row.customerId}, ${row.paymentId}::uuid, ${row.requestedByAgentKeyId}::uuid,
            ${row.requestedByStaffId}::uuid, ${row.channelId}::uuid, ${row.endUserId}, ${row.amountMinor}::int, ${row.currency}, ${row.recipientKind},
            ${row.recipientRef}, ${row.recipientHolder}, ${row.recipientDisplay}, ${row.reason}, ${hash},
            (${ts(row.expiresAt)}::timestamptz AT TIME ZONE 'UTC'), ${row.requiredApprovals}::int, ${row.policyVersion}::int, ${row.sourceProvider},
            ${row.sourceCapturedMinor}::int, ${row.sourceRefundedMinor}::int, ${row.hashVersion}::int, ${row.confirmation}, ${row.orderNumber}, ${row.customerName},
            ${JSON.stringify(row.orderItems)}::jsonb, ${row.supersedesId}::uuid,
            ${row.traceId}, ${currentTraceparent()}, (${at}::timestamptz AT TIME ZONE 'UTC'), (${at}::timestamptz AT TIME ZONE 'UTC'),
            ${followUp?.parentId ?? null}::uuid, ${followUp ? proposalStatus.approved : proposalStatus.pendingApproval}::"ProposalStatus",
            (${followUp ? at : null}::timestamptz AT TIME ZONE 'UTC'))
    RETURNING *`.execute(tx);
  if (!inserted) throw new Error("proposal insert returned no row");
  const proposal = asRefund(inserted);
  // A follow-up awaits no review (it is approved by its parent's approval) and was not prepared by anyone.
  if (followUp) return { ok: true, proposal, payment };
  metrics().proposals.inc({ kind: proposal.kind, outcome: "prepared" });
  // A new proposal awaits review: reviewers' e-mails, the tenant's Slack message and reviewer webhook are
  // recorded with it (outbox rows + delivery jobs committed in this transaction). The tenant's webhook URLs
  // were read above with the facts: no extra round trip when the tenant has none and e-mail is off.
  await notifyReviewersOfProposal(tx, proposal, {
    reviewWebhookUrl: facts.reviewWebhookUrl,
    slackWebhookUrl: facts.slackWebhookUrl,
  });
  return { ok: true, proposal, payment };
}

/**
 * What a new proposal for an order is built from, as it is now: the refunds holding money back and the open
 * proposals (the sums of refundableSumsSql, refundable-left.ts), the order's original payment, the tenant's
 * policy (approval expiry, dual-approval threshold, policy version, cool-down, reviewer webhook, Slack webhook),
 * and what the reviewer reads about the order (its number, its customer's name, its items — hash v4).
 */
export type ProposalFacts = {
  refundedOrPendingMinor: number;
  openProposalsMinor: number;
  payment: Payment | null;
  policy: {
    approvalExpiryMinutes: number;
    dualApprovalThresholdMinor: number | null;
    policyVersion: number;
    rejectionCooldownMinutes: number;
  };
  reviewWebhookUrl: string | null;
  slackWebhookUrl: string | null;
  /** What a v4 proposal binds of the order (number, its customer's name, items); null when the order is not the tenant's. */
  order: { number: string; customerName: string; items: unknown } | null;
};

/** The columns proposalFactsJoins adds to a statement (prefixed, so it composes with other lateral joins). */
export type ProposalFactsRow = {
  factsRefundedMinor: bigint | number;
  factsOpenMinor: bigint | number;
  factsApprovalExpiryMinutes: number;
  factsDualApprovalThresholdMinor: number | null;
  factsPolicyVersion: number;
  factsRejectionCooldownMinutes: number;
  factsReviewWebhookUrl: string | null;
  factsSlackWebhookUrl: string | null;
  factsOrderNumber: string | null;
  factsCustomerName: string | null;
  factsOrderItems: unknown;
  payId: string | null;
  payTenantId: string | null;
  payOrderId: string | null;
  payMethod: PaymentMethod | null;
  payProviderPaymentRef: string | null;
  payHolderName: string | null;
  payDisplay: string | null;
  payAmountMinor: number | null;
  payCurrency: string | null;
  payProvider: PaymentSource | null;
  payProviderAccount: string | null;
  payCreatedAt: Date | null;
};

/** Lateral joins for `SELECT … FROM (SELECT 1) one <joins>`: one row (none when the tenant does not exist). */
export function proposalFactsJoins(tenantId: string, orderId: string, now: Date): RawBuilder<unknown> {
  return sql`
    CROSS JOIN LATERAL (${refundableSumsSql(orderId, now)}) sums
    CROSS JOIN LATERAL (
      SELECT sums."leftRefundedMinor" AS "factsRefundedMinor", sums."leftOpenMinor" AS "factsOpenMinor",
             t."approvalExpiryMinutes" AS "factsApprovalExpiryMinutes", t."dualApprovalThresholdMinor" AS "factsDualApprovalThresholdMinor",
             t."policyVersion" AS "factsPolicyVersion", t."rejectionCooldownMinutes" AS "factsRejectionCooldownMinutes",
             t."reviewWebhookUrl" AS "factsReviewWebhookUrl", t."slackWebhookUrl" AS "factsSlackWebhookUrl",
             o."number" AS "factsOrderNumber", c."name" AS "factsCustomerName", o."items" AS "factsOrderItems"
        FROM "Tenant" t
        LEFT JOIN "Order" o ON o."id" = ${orderId}::uuid AND o."tenantId" = t."id"
        LEFT JOIN "Customer" c ON c."id" = o."customerId" AND c."tenantId" = t."id"
       WHERE t."id" = ${tenantId}::uuid
    ) facts
    LEFT JOIN LATERAL (
      SELECT y."id" AS "payId", y."tenantId" AS "payTenantId", y."orderId" AS "payOrderId", y."method"::text AS "payMethod",
             y."providerPaymentRef" AS "payProviderPaymentRef", y."holderName" AS "payHolderName", y."display" AS "payDisplay",
             y."amountMinor" AS "payAmountMinor", y."currency" AS "payCurrency", y."provider"::text AS "payProvider", y."createdAt" AS "payCreatedAt",
             y."providerAccount" AS "payProviderAccount"
        FROM "Payment" y WHERE y."orderId" = ${orderId}::uuid AND y."tenantId" = ${tenantId}::uuid
       ORDER BY y."createdAt" ASC LIMIT 1
    ) pay ON true`;
}

/** The order's original payment from its LEFT JOIN columns: null when there is none (every column is null then). */
function paymentOf(r: ProposalFactsRow): Payment | null {
  const { payId: id, payTenantId: tenantId, payOrderId: orderId, payMethod: method } = r;
  const { payProviderPaymentRef: providerPaymentRef, payHolderName: holderName, payDisplay: display } = r;
  const { payAmountMinor: amountMinor, payCurrency: currency, payProvider: provider, payCreatedAt: createdAt } = r;
  const { payProviderAccount: providerAccount } = r;
  if (
    id === null ||
    tenantId === null ||
    orderId === null ||
    method === null ||
    providerPaymentRef === null ||
    holderName === null ||
    display === null ||
    amountMinor === null ||
    currency === null ||
    provider === null ||
    providerAccount === null ||
    createdAt === null
  )
    return null;
  return {
    id,
    tenantId,
    orderId,
    method,
    providerPaymentRef,
    holderName,
    display,
    amountMinor,
    currency,
    provider,
    providerAccount,
    createdAt,
  };
}

export function proposalFactsOf(r: ProposalFactsRow): ProposalFacts {
  return {
    refundedOrPendingMinor: Number(r.factsRefundedMinor),
    openProposalsMinor: Number(r.factsOpenMinor),
    payment: paymentOf(r),
    policy: {
      approvalExpiryMinutes: r.factsApprovalExpiryMinutes,
      dualApprovalThresholdMinor: r.factsDualApprovalThresholdMinor,
      policyVersion: r.factsPolicyVersion,
      rejectionCooldownMinutes: r.factsRejectionCooldownMinutes,
    },
    reviewWebhookUrl: r.factsReviewWebhookUrl,
    slackWebhookUrl: r.factsSlackWebhookUrl,
    order:
      r.factsOrderNumber === null || r.factsCustomerName === null
        ? null
        : { number: r.factsOrderNumber, customerName: r.factsCustomerName, items: r.factsOrderItems },
  };
}

/** proposalFactsJoins on its own: one round trip. Throws when the tenant does not exist. */
export async function readProposalFacts(tx: Sql, tenantId: string, orderId: string, now: Date): Promise<ProposalFacts> {
  const {
    rows: [row],
  } =
    await sql<ProposalFactsRow>`SELECT facts.*, pay.* FROM (SELECT 1) one ${proposalFactsJoins(tenantId, orderId, now)}`.execute(
      tx,
    );
  if (!row) throw new Error("tenant not found");
  return proposalFactsOf(row);
}
