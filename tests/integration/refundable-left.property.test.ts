// What is left to refund (lib/server/proposals/refundable-left.ts) against an independent model, over random
// ledgers in the real database: a capture, refunds of every status made here or elsewhere (origin local /
// external), and proposals of every status with expiries around `now` (exactly `now` included), optionally
// not counting one. Both paths the product takes are checked: refundableLeft (lookup_order, approval and
// execution) and the prepare path's one read (readProposalFacts + leftOf, build-proposal.ts). The model is
// written from docs/systems-of-record.md, not from the code: changing either side turns this red.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { readProposalFacts } from "@/lib/server/proposals/build-proposal";
import { leftOf, refundableLeft } from "@/lib/server/proposals/refundable-left";
import { customerId } from "../../scripts/lib/demo-data";
import { ES, webKey } from "./gateway-support";
import { createPaidOrder } from "../../scripts/lib/fixtures";
import { transaction } from "@/lib/server/db/transaction";

const REFUND_STATUSES = ["pending", "succeeded", "failed", "requires_action", "canceled"] as const;
const PROPOSAL_STATUSES = [
  "pending_approval",
  "approved",
  "executing",
  "succeeded",
  "failed",
  "needs_reconciliation",
  "rejected",
  "expired",
  "invalidated",
] as const;

type Ledger = {
  capturedMinor: number;
  refunds: { amountMinor: number; status: (typeof REFUND_STATUSES)[number]; external: boolean }[];
  proposals: { amountMinor: number; status: (typeof PROPOSAL_STATUSES)[number]; expiresInSeconds: number }[];
  exclude: number | null;
};

/** The model: money that has left or is leaving (pending, requires_action, succeeded — wherever made), and
 * proposals being paid or awaiting review before their expiry (strictly later than now), are held back. */
function modelLeft(l: Ledger): number {
  const refunded = l.refunds
    .filter((r) => r.status === "pending" || r.status === "requires_action" || r.status === "succeeded")
    .reduce((s, r) => s + r.amountMinor, 0);
  const open = l.proposals
    .filter((_, i) => i !== l.exclude)
    .filter(
      (p) =>
        ["approved", "executing", "needs_reconciliation"].includes(p.status) ||
        (p.status === "pending_approval" && p.expiresInSeconds > 0),
    )
    .reduce((s, p) => s + p.amountMinor, 0);
  return Math.max(0, l.capturedMinor - refunded - open);
}

const amount = fc.integer({ min: 1, max: 60_000 });
const ledger: fc.Arbitrary<Ledger> = fc
  .record({
    capturedMinor: fc.integer({ min: 0, max: 200_000 }),
    refunds: fc.array(
      fc.record({ amountMinor: amount, status: fc.constantFrom(...REFUND_STATUSES), external: fc.boolean() }),
      { maxLength: 6 },
    ),
    proposals: fc.array(
      fc.record({
        amountMinor: amount,
        status: fc.constantFrom(...PROPOSAL_STATUSES),
        expiresInSeconds: fc.constantFrom(-600, -1, 0, 1, 600),
      }),
      { maxLength: 6 },
    ),
    excludeSeed: fc.nat(),
    excludeSome: fc.boolean(),
  })
  .map(({ excludeSeed, excludeSome, ...l }) => {
    // The database allows one pending proposal per order (partial unique index): later ones become expired.
    let seen = false;
    const proposals = l.proposals.map((p) => {
      if (p.status !== "pending_approval") return p;
      if (seen) return { ...p, status: "expired" as const };
      seen = true;
      return p;
    });
    return { ...l, proposals, exclude: excludeSome && proposals.length > 0 ? excludeSeed % proposals.length : null };
  });

class Rollback extends Error {}

describe("refundable left: one definition, checked against a model", () => {
  it("agrees with the model on random ledgers, on both the lookup/execution path and the prepare path", async () => {
    const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
    const customer = customerId(ES, "ana");
    const agentKey = await db().agentKey.findFirstOrThrow({ where: { tenantId: tenant.id } });
    expect(webKey()).toMatch(/^agk_/);
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(ledger, async (l) => {
        const now = new Date(Math.floor(Date.now() / 1000) * 1000);
        let seen: { lookup: number; prepare: number; sums: { refunded: number; open: number } } | null = null;
        await transaction(
          async (tx) => {
            const paid = await createPaidOrder(tx, tenant, {
              customerId: customer,
              amountMinor: l.capturedMinor,
              prefix: "PROP",
              holderName: "Ana",
            });
            const order = { id: paid.orderId, capturedMinor: paid.amountMinor };
            const payment = { id: paid.paymentId, providerPaymentRef: paid.paymentRef };
            await tx.refund.createMany({
              data: l.refunds.map((r) => ({
                tenantId: tenant.id,
                orderId: order.id,
                paymentId: payment.id,
                amountMinor: r.amountMinor,
                currency: tenant.currency,
                status: r.status,
                origin: r.external ? ("external" as const) : ("local" as const),
                providerRefundId: `re_prop_${randomUUID()}`,
              })),
            });
            const ids = l.proposals.map(() => randomUUID());
            await tx.proposal.createMany({
              data: l.proposals.map((p, i) => ({
                id: ids[i]!,
                tenantId: tenant.id,
                kind: "refund",
                subject: { type: "order", ref: order.id },
                orderId: order.id,
                customerId: customer,
                paymentId: payment.id,
                requestedByAgentKeyId: agentKey.id,
                amountMinor: p.amountMinor,
                currency: tenant.currency,
                recipientKind: "card",
                recipientRef: payment.providerPaymentRef,
                recipientHolder: "Ana",
                recipientDisplay: "Visa •••• 4242",
                reason: "other",
                status: p.status,
                hash: "0".repeat(64),
                expiresAt: new Date(now.getTime() + p.expiresInSeconds * 1000),
                traceId: `prop-${i}`,
              })),
            });
            const exclude = l.exclude === null ? undefined : ids[l.exclude];
            const lookup = await refundableLeft(sqlOf(tx), order, { now, excludeProposalId: exclude });
            seen = {
              lookup: lookup.leftMinor,
              prepare: -1,
              sums: { refunded: lookup.refundedOrPendingMinor, open: lookup.openProposalsMinor },
            };
            if (exclude === undefined) {
              const facts = await readProposalFacts(sqlOf(tx), tenant.id, order.id, now);
              seen.prepare = leftOf(order.capturedMinor, {
                leftRefundedMinor: facts.refundedOrPendingMinor,
                leftOpenMinor: facts.openProposalsMinor,
              }).leftMinor;
            }
            throw new Rollback();
          },
          { timeout: 20_000 },
        ).catch((e: unknown) => {
          if (!(e instanceof Rollback)) throw e;
        });
        runs++;
        const expected = modelLeft(l);
        expect(seen!.lookup).toBe(expected);
        if (l.exclude === null) expect(seen!.prepare).toBe(expected);
      }),
      { numRuns: 60 },
    );
    expect(runs).toBeGreaterThanOrEqual(60);
  });
});
