import "server-only";
import { refundableMinor } from "@/lib/domain/money";
import { inPaymentStatuses, proposalStatus } from "@/lib/domain/proposal-state";
import { holdingRefundStatuses } from "@/lib/domain/refund-state";
import type { Prisma } from "@/lib/server/db/generated/client";
import { sql, utc, type RawBuilder, type Sql, type SqlBool } from "@/lib/server/db/sql";
import { paymentLiveReads } from "@/lib/server/env";
import { paymentProviderFor, ProviderConnectionUnusable } from "@/lib/server/payments/get-payment-provider";

/**
 * The proposals of an order that hold money back at `now`: being paid, or awaiting review and not past
 * their expiry. A pending proposal past its expiry holds nothing back, whether or not the sweep has
 * marked it `expired` yet (so `lookup_order` and a new prepare agree with get_refund_status). The Prisma
 * form lists them for the reviewer (get-proposal.ts); `openProposalSql` below is the SQL form of the same rule.
 */
export function openAt(now: Date): Prisma.ProposalWhereInput {
  return {
    OR: [
      { status: { in: [...inPaymentStatuses] } },
      { status: proposalStatus.pendingApproval, expiresAt: { gt: now } },
    ],
  };
}

/** The open proposals of one order at `now`, optionally not counting one (the reviewer's list of them). */
export function openProposalsWhere(orderId: string, now: Date, excludeId?: string): Prisma.ProposalWhereInput {
  return { orderId, ...(excludeId ? { id: { not: excludeId } } : {}), ...openAt(now) };
}

export type RefundableLeft = { leftMinor: number; refundedOrPendingMinor: number; openProposalsMinor: number };

/** The columns `refundableSumsSql` yields (int8 sums: bigint as node-postgres and Prisma read them). */
export type RefundableSumsRow = { leftRefundedMinor: bigint | number; leftOpenMinor: bigint | number };

/**
 * THE definition of what an order holds back, as one SQL sub-select (one row, two columns): refunds in our
 * ledger that hold money back (pending, requires_action, succeeded — made here or anywhere else, origin local or
 * external) and the open proposals (optionally not counting one: the proposal being checked). lookup_order,
 * prepare (inlined into its one read, build-proposal.ts), approval and execution (proposal-guards.ts) all use
 * it; `leftOf` turns it into what is left. tests/integration/refundable-left.property.test.ts checks it against
 * an independent model over random ledgers. `countedAtProvider`: refunds the caller already counted from the
 * provider's own list (a live read) — each refund is counted once, by its reference.
 */
export function refundableSumsSql(
  orderId: string,
  now: Date,
  excludeProposalId: string | null = null,
  countedAtProvider: string[] = [],
): RawBuilder<RefundableSumsRow> {
  const holding = [...holdingRefundStatuses];
  return sql<RefundableSumsRow>`
    SELECT (SELECT coalesce(sum(r."amountMinor"), 0) FROM "Refund" r
              WHERE r."orderId" = ${orderId}::uuid AND r."status" = ANY(${holding}::"RefundStatus"[])
                AND NOT (coalesce(r."providerRefundId", '') = ANY(${countedAtProvider}::text[])))::bigint AS "leftRefundedMinor",
           (SELECT coalesce(sum(p."amountMinor"), 0) FROM "Proposal" p
              WHERE p."orderId" = ${orderId}::uuid AND (${excludeProposalId}::uuid IS NULL OR p."id" <> ${excludeProposalId}::uuid)
                AND ${openProposalSql(now)})::bigint AS "leftOpenMinor"`;
}

/**
 * `openAt` in SQL, on a proposal aliased `p`: whether it holds money back at `now` (being paid, or awaiting
 * review and not past its expiry). The sum above and lookup_order's list of open proposals both use it.
 */
export function openProposalSql(now: Date): RawBuilder<SqlBool> {
  return sql<SqlBool>`(p."status" = ANY(${[...inPaymentStatuses]}::"ProposalStatus"[])
                     OR (p."status" = ${proposalStatus.pendingApproval}::"ProposalStatus"
                         AND p."expiresAt" > ${utc(now)}))`;
}

/** What is left to refund from a row of `refundableSumsSql` and the order's capture. */
export function leftOf(capturedMinor: number, row: RefundableSumsRow): RefundableLeft {
  const refundedOrPendingMinor = Number(row.leftRefundedMinor);
  const openProposalsMinor = Number(row.leftOpenMinor);
  return {
    leftMinor: refundableMinor({ capturedMinor, refundedOrPendingMinor, openProposalsMinor }),
    refundedOrPendingMinor,
    openProposalsMinor,
  };
}

/**
 * What may still be proposed for refund on an order: captured − refunds holding money back − open proposals
 * (optionally not counting one). Callers hold the order's row lock when they act on the answer.
 */
export async function refundableLeft(
  tx: Sql,
  order: { id: string; capturedMinor: number },
  opts: { now: Date; excludeProposalId?: string },
): Promise<RefundableLeft> {
  const { rows } = await refundableSumsSql(order.id, opts.now, opts.excludeProposalId ?? null).execute(tx);
  return leftOf(order.capturedMinor, rows[0]!);
}

/**
 * A payment the provider holds, and the order it belongs to. `payment`: what the shop told us of that payment (its
 * currency and what it captured), compared with what the provider holds under the reference.
 */
export type LiveTarget = {
  tenantId: string;
  orderId: string;
  provider: string;
  paymentRef: string;
  ledgerCapturedMinor: number;
  payment: { currency: string; capturedMinor: number };
};

export type LiveLeft =
  | ({ ok: true; live: boolean; capturedMinor: number } & RefundableLeft)
  | { ok: false; reason: "provider_unavailable"; message: string }
  | { ok: false; reason: "payment_not_at_provider" }
  | { ok: false; reason: "payment_mismatch"; field: "currency" | "captured" };

/**
 * What is left to refund with the provider as the truth (docs/systems-of-record.md "Stripe as the truth"): for a
 * payment at the provider (and live reads on), captured = what the provider captured; refunded = every refund the
 * provider lists in pending / requires_action / succeeded (made by anyone) + ledger refunds it does not list
 * (a bank transfer, store credit the shop pushed); minus this product's other open proposals. One provider round
 * trip (the payment intent and its refunds asked at once). Otherwise the ledger alone (refundableLeft).
 */
export async function refundableLeftLive(
  tx: Sql,
  target: LiveTarget,
  opts: { now: Date; excludeProposalId?: string },
): Promise<LiveLeft> {
  if (target.provider !== "stripe" || !paymentLiveReads()) {
    return {
      ok: true,
      live: false,
      capturedMinor: target.ledgerCapturedMinor,
      ...(await refundableLeft(tx, { id: target.orderId, capturedMinor: target.ledgerCapturedMinor }, opts)),
    };
  }
  let provider;
  try {
    // Through the caller's transaction: it already holds a pooled connection (get-payment-provider.ts).
    provider = await paymentProviderFor(target.tenantId, tx);
  } catch (error) {
    // A stored connection that does not open fails closed: as if the provider did not answer (logged by the caller's outcome).
    if (error instanceof ProviderConnectionUnusable)
      return { ok: false, reason: "provider_unavailable", message: error.message };
    throw error;
  }
  const read = await provider.readPayment(target.paymentRef);
  if (read.outcome === "not_found") return { ok: false, reason: "payment_not_at_provider" };
  if (read.outcome !== "ok") return { ok: false, reason: "provider_unavailable", message: read.message };
  // The object under this reference must be the payment the order names: the same currency and capture. Otherwise
  // it is another payment (another tenant's or order's at a shared account, a changed one): the amount would be
  // derived from it and paid in a currency nobody approved (docs/systems-of-record.md "Whose payment it is").
  if (read.snapshot.currency !== target.payment.currency.trim().toUpperCase())
    return { ok: false, reason: "payment_mismatch", field: "currency" };
  if (read.snapshot.capturedMinor !== target.payment.capturedMinor)
    return { ok: false, reason: "payment_mismatch", field: "captured" };
  const atProvider = read.snapshot.refunds
    .filter((r) => (holdingRefundStatuses as readonly string[]).includes(r.status))
    .reduce((s, r) => s + r.amountMinor, 0);
  const ids = read.snapshot.refunds.map((r) => r.id);
  const [row] = (await refundableSumsSql(target.orderId, opts.now, opts.excludeProposalId ?? null, ids).execute(tx))
    .rows;
  const left = leftOf(read.snapshot.capturedMinor, {
    leftRefundedMinor: Number(row!.leftRefundedMinor) + atProvider,
    leftOpenMinor: row!.leftOpenMinor,
  });
  return { ok: true, live: true, capturedMinor: read.snapshot.capturedMinor, ...left };
}
