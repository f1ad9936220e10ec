// One definition of the rules (docs/systems-of-record.md "Bulk orders"): the same random orders — creates, updates,
// refunds made elsewhere, cancellations, customers shared between orders, invalid ones, an open proposal on some —
// go through the per-order path (upsertOrder, what PUT /api/v1/orders/{number} runs) in one tenant and through the
// batch path (upsertOrderBatch, what POST /api/v1/orders/batch and orders:import run) in another, and must leave
// the same outcomes, order rows, customers, payments, refund ledger and proposal statuses. fast-check generates the
// scenarios; a failure prints the smallest one it finds.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/domain/outcome";
import { orderImportLine } from "@/lib/schemas/orders-api";
import { db } from "@/lib/server/db/client";
import { upsertOrder, type OrderWriter } from "@/lib/server/orders/upsert-order";
import { upsertOrderBatch } from "@/lib/server/orders/upsert-order-batch";
import { anthropicCall, ES, headersFor, send, tokenFor, US, webKey } from "./gateway-support";

type Version = {
  customer: number;
  /** Which payment reference the order lists: another one replaces (deletes) the stored payment. */
  payment: number;
  total: number;
  captured: number;
  status: "paid" | "canceled";
  refunds: { ref: number; amount: number; status: "succeeded" | "pending" | "failed" }[];
  display: string;
  address: boolean;
};
type Scenario = { first: (Version | null)[]; proposal: boolean[]; second: (Version | null)[] };

const version: fc.Arbitrary<Version> = fc.record({
  // Some customers shared between orders (the per-order path's case), most an order's own (updates set-based).
  customer: fc.integer({ min: 0, max: 5 }),
  payment: fc.constantFrom(0, 0, 0, 1),
  total: fc.constantFrom(3000, 5000),
  captured: fc.constantFrom(3000, 5000),
  status: fc.constantFrom("paid", "paid", "paid", "canceled"),
  // Most versions without refunds (the set-based path's case), some with refunds made elsewhere.
  refunds: fc.oneof(
    { weight: 2, arbitrary: fc.constant<Version["refunds"]>([]) },
    {
      weight: 1,
      arbitrary: fc.array(
        fc.record({
          ref: fc.integer({ min: 0, max: 2 }),
          amount: fc.constantFrom(100, 2000, 6000), // 6000: more than was captured → refused
          status: fc.constantFrom("succeeded", "pending", "failed"),
        }),
        { minLength: 1, maxLength: 2 },
      ),
    },
  ),
  display: fc.constantFrom("Visa •• 4242", "Visa •• 1111"),
  address: fc.boolean(),
});
const K = 4;
const scenario: fc.Arbitrary<Scenario> = fc.record({
  first: fc.array(fc.option(version, { freq: 5 }), { minLength: K, maxLength: K }),
  proposal: fc.array(fc.boolean(), { minLength: K, maxLength: K }),
  second: fc.array(fc.option(version, { freq: 4 }), { minLength: K, maxLength: K }),
});

/** What the runs exercised, so the property cannot pass on scenarios that touch nothing. */
const seen = { setBased: 0, setBasedUpdates: 0, refused: 0, invalidated: 0, external: 0 };

const tenants = { [ES]: "EUR", [US]: "USD" } as const;
let run = 0;

/** The order line for a tenant: the same for both but the currency (each books in its own). */
function orderLine(slug: keyof typeof tenants, tag: string, k: number, v: Version) {
  const uniqueRefs = [...new Map(v.refunds.map((r) => [r.ref, r])).values()];
  return {
    number: `RUL-${tag}-${k}`,
    customer: { id: `cus_rul_${tag}_${v.customer}`, email: `c${v.customer}@example.com`, name: `Customer ${v.total}` },
    currency: tenants[slug],
    total_minor: v.total,
    status: v.status,
    placed_at: "2026-11-30T10:00:00Z",
    items: [{ sku: "MUG-1", name: "Mug", quantity: 1, unit_minor: v.total }],
    payments: [
      {
        provider: "manual",
        reference: `pay_rul_${tag}_${k}${v.payment ? `_${v.payment}` : ""}`,
        method: "card",
        captured_minor: v.captured,
        holder: "Jane Doe",
        display: v.display,
      },
    ],
    refunds: uniqueRefs.map((r) => ({
      reference: `re_rul_${tag}_${k}_${r.ref}`,
      amount_minor: r.amount,
      status: r.status,
    })),
    ...(v.address
      ? {
          shipping_address: {
            name: "Jane Doe",
            line1: "10 rue de Rivoli",
            line2: null,
            city: "Paris",
            postal_code: "75001",
            region: null,
            country: "FR",
          },
        }
      : {}),
  };
}

const writerFor = async (slug: string): Promise<OrderWriter> => ({
  tenantId: (await db().tenant.findUniqueOrThrow({ where: { slug } })).id,
  actorId: "rules-test",
  authMethod: "integration_key",
  source: "orders_api",
});

async function perOrder(writer: OrderWriter, lines: ReturnType<typeof orderLine>[]): Promise<string[]> {
  const out: string[] = [];
  for (const { number, ...body } of lines) {
    try {
      const r = await upsertOrder(writer, number, body, `rules-${number}`);
      out.push(r.created ? "created" : r.changed ? "updated" : "unchanged");
    } catch (error) {
      if (!isAppError(error)) throw error;
      out.push(`refused:${error.code}`);
    }
  }
  return out;
}

async function batched(writer: OrderWriter, lines: ReturnType<typeof orderLine>[]): Promise<string[]> {
  if (lines.length === 0) return [];
  const entries = lines.map((l) => {
    const { number, ...body } = orderImportLine.parse(l);
    return { number, body };
  });
  const { results, setBased, setBasedUpdates } = await upsertOrderBatch(writer, entries, `rules-batch-${++run}`, {
    timeoutMs: 30_000,
    audit: {},
  });
  seen.setBased += setBased;
  seen.setBasedUpdates += setBasedUpdates;
  return results.map((r) => (r.outcome === "refused" ? `refused:${r.code}` : r.outcome));
}

async function openProposal(slug: keyof typeof tenants, number: string, customer: string): Promise<void> {
  await send(
    anthropicCall("prepare_refund", { order_id: number, reason: "damaged_item" }),
    headersFor({ key: webKey(slug), token: await tokenFor(slug, customer) }),
  );
}

/** What both paths must agree on, without ids, the tenant and the currency. */
async function stateOf(tenantId: string, tag: string) {
  const orders = await db().order.findMany({
    where: { tenantId, number: { startsWith: `RUL-${tag}-` } },
    orderBy: { number: "asc" },
    select: {
      number: true,
      customerId: true,
      totalMinor: true,
      capturedMinor: true,
      status: true,
      items: true,
      fulfilment: true,
      shippingAddress: true,
      placedAt: true,
      customer: { select: { id: true, name: true, email: true } },
      payments: {
        orderBy: { providerPaymentRef: "asc" },
        select: { providerPaymentRef: true, method: true, holderName: true, display: true, amountMinor: true },
      },
      refunds: {
        orderBy: { providerRefundId: "asc" },
        select: { providerRefundId: true, amountMinor: true, status: true, origin: true },
      },
      proposals: { orderBy: { createdAt: "asc" }, select: { status: true, invalidationReason: true } },
    },
  });
  return orders;
}

describe("the per-order path and the batch path share one definition of the rules", () => {
  it("the same random orders leave the same rows, outcomes, ledger and proposal statuses", async () => {
    const [a, b] = [await writerFor(ES), await writerFor(US)];
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const tag = `${Date.now().toString(36)}${++run}`;
        const phase = (versions: (Version | null)[], slug: keyof typeof tenants) =>
          versions.flatMap((v, k) => (v ? [orderLine(slug, tag, k, v)] : []));
        const outcomes: Record<string, string[][]> = { [ES]: [], [US]: [] };
        outcomes[ES]!.push(await perOrder(a, phase(s.first, ES)));
        outcomes[US]!.push(await batched(b, phase(s.first, US)));
        expect(await stateOf(b.tenantId, tag)).toEqual(await stateOf(a.tenantId, tag));
        for (const [k, v] of s.first.entries())
          if (v && s.proposal[k])
            for (const slug of [ES, US] as const)
              await openProposal(slug, `RUL-${tag}-${k}`, `cus_rul_${tag}_${v.customer}`);
        outcomes[ES]!.push(await perOrder(a, phase(s.second, ES)));
        outcomes[US]!.push(await batched(b, phase(s.second, US)));
        expect(outcomes[US]).toEqual(outcomes[ES]);
        const [left, right] = [await stateOf(a.tenantId, tag), await stateOf(b.tenantId, tag)];
        expect(right).toEqual(left);
        seen.refused += outcomes[ES]!.flat().filter((o) => o.startsWith("refused")).length;
        seen.invalidated += left.flatMap((o) => o.proposals).filter((p) => p.status === "invalidated").length;
        seen.external += left.flatMap((o) => o.refunds).length;
      }),
      { numRuns: 10, seed: Number(process.env.RULES_SEED ?? 20261206), endOnFailure: true },
    );
    expect(Object.entries(seen).filter(([, n]) => n === 0)).toEqual([]);
  }, 60_000);
});
