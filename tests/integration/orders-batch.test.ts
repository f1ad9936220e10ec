// The bulk Orders API, POST /api/v1/orders/batch (docs/systems-of-record.md "Bulk orders"), through the real route
// handler against the real database: a created / updated / unchanged / refused mix in one request, idempotent
// re-sends, the set-based path and the per-order path in one transaction, an open proposal invalidated by a
// batch, tenant isolation, the scope, the body cap (413, nothing written), > 1,000 orders and a number sent
// twice (400, nothing written), and references the set-based path must leave to the per-order refusal.
import { describe, expect, it } from "vitest";
import { POST as batchPOST } from "@/app/api/v1/orders/batch/route";
import { BODY_LIMITS } from "@/lib/config/body-limits";
import { db } from "@/lib/server/db/client";
import { issueIntegrationKey } from "@/lib/server/integrations/issue-integration-key";
import { actorFor, staffOf } from "../support/actors";
import { anthropicCall, ES, headersFor, send, tokenFor, US } from "./gateway-support";

const adminOf = (slug: string) => actorFor(staffOf(slug, "admin").email);
const keyFor = async (slug: string, scopes: string[] = ["orders:write", "orders:read"]) =>
  (await issueIntegrationKey(await adminOf(slug), { label: "Shop", scopes })).key;

let seq = 0;
const fresh = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++seq}`;

function order(number: string, over: Record<string, unknown> = {}, customer = `cus_b_${fresh("c")}`) {
  return {
    number,
    customer: { id: customer, email: "jane.doe@example.com", name: "Jane Doe" },
    currency: "EUR",
    total_minor: 5000,
    status: "paid",
    placed_at: "2026-11-30T10:00:00+01:00",
    items: [{ sku: "MUG-1", name: "Mug", quantity: 1, unit_minor: 5000 }],
    payments: [
      {
        provider: "manual",
        reference: `pay_${fresh("b")}`,
        method: "card",
        captured_minor: 5000,
        holder: "Jane Doe",
        display: "Visa •• 4242",
      },
    ],
    ...over,
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read by field name in assertions
type Body = Record<string, any>;

async function batch(body: unknown, key: string | null) {
  const res = await batchPOST(
    new Request("http://localhost/api/v1/orders/batch", {
      method: "POST",
      headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    {},
  );
  return { status: res.status, body: (await res.json()) as Body };
}

const tenantOf = async (slug: string) => (await db().tenant.findUniqueOrThrow({ where: { slug } })).id;
const stored = async (slug: string, number: string) =>
  db().order.findUnique({
    where: { tenantId_number: { tenantId: await tenantOf(slug), number } },
    include: { payments: true, refunds: true, customer: true },
  });

describe("POST /api/v1/orders/batch", () => {
  it("answers created / updated / unchanged / refused per order, in one transaction; a re-send is all unchanged", async () => {
    const key = await keyFor(ES);
    const [a, b, c, d] = ["A", "B", "C", "D"].map((x) => fresh(`BAT${x}`));
    const firstOrders = [order(a!), order(b!)];
    const first = await batch({ orders: firstOrders }, key);
    expect(first.status).toBe(200);
    expect(first.body.results).toEqual([
      { number: a, outcome: "created" },
      { number: b, outcome: "created" },
    ]);
    const storedA = (await stored(ES, a!))!;
    expect(storedA).toMatchObject({ totalMinor: 5000, capturedMinor: 5000, status: "paid", currency: "EUR" });
    expect(storedA.placedAt.toISOString()).toBe("2026-11-30T09:00:00.000Z"); // the offset applied, stored in UTC
    expect(storedA.payments).toHaveLength(1);

    const bodyA = firstOrders[0]!;
    const again = {
      orders: [
        { ...bodyA, total_minor: 6000 },
        firstOrders[1],
        order(c!),
        order(d!, { currency: "USD" }),
        { number: fresh("BATX"), currency: "EUR" },
      ],
    };
    // a: a new total → updated; b: the same body → unchanged; c: new → created; d: a foreign currency and an
    // order the schema refuses → refused, each with its problems.
    const second = await batch(again, key);
    expect(second.status).toBe(200);
    expect(second.body.results.map((r: Body) => r.outcome)).toEqual([
      "updated",
      "unchanged",
      "created",
      "refused",
      "refused",
    ]);
    expect(second.body.results[3]).toMatchObject({
      number: d,
      code: "invalid_arguments",
      problems: [expect.objectContaining({ path: "$.currency", expected: "EUR" })],
    });
    expect(second.body.results[4].problems.map((p: Body) => p.path)).toContain("$.customer");
    expect(await stored(ES, d!)).toBeNull(); // refused: nothing of it written, the others are

    const third = await batch(again, key);
    expect(third.body.results.map((r: Body) => r.outcome)).toEqual([
      "unchanged",
      "unchanged",
      "unchanged",
      "refused",
      "refused",
    ]);

    // One audit event per request, naming every order number; the per-order path's events for its orders.
    const events = await db().auditEvent.findMany({
      where: {
        tenantId: await tenantOf(ES),
        action: "orders:batch",
        data: { path: ["numbers"], string_contains: ` ${c} ` },
      },
    });
    expect(events).toHaveLength(2);
    expect(events.map((e) => e.data)).toContainEqual(
      expect.objectContaining({
        received: 5,
        orders: 4,
        created: 1,
        updated: 1,
        unchanged: 1,
        refused: 1,
        // a (updated), b (unchanged) and c (created) set-based; d through the per-order path (refused there).
        setBased: 3,
        perOrder: 1,
      }),
    );
    expect(JSON.stringify(events)).not.toContain("jane.doe@example.com");
    // The request's SHA-256, kept in clear (in groups the audit's secret scrubber leaves alone).
    expect(events.map((e) => (e.data as { digest: string }).digest)).toEqual([
      expect.stringMatching(/^sha256:[0-9a-f]{8}(:[0-9a-f]{8}){7}$/),
      expect.stringMatching(/^sha256:[0-9a-f]{8}(:[0-9a-f]{8}){7}$/),
    ]);
  });

  it("text COPYed by the set-based path arrives as sent (backslashes, quotes, line ends, JSON in items)", async () => {
    const key = await keyFor(ES);
    const number = fresh("BATE");
    const odd = 'O\'Brien \\ "Jr" \\N\nsecond line\ttab';
    const body = order(number, { items: [{ sku: "A\\B", name: odd, quantity: 2, unit_minor: 2500 }] });
    body.customer.name = odd;
    body.payments[0]!.holder = odd;
    const res = await batch({ orders: [body] }, key);
    expect(res.body.results[0]).toEqual({ number, outcome: "created" });
    const row = (await stored(ES, number))!;
    expect(row.customer.name).toBe(odd);
    expect(row.payments[0]!.holderName).toBe(odd);
    expect(row.items).toEqual([{ sku: "A\\B", name: odd, quantity: 2, unitMinor: 2500 }]);
    expect((await batch({ orders: [body] }, key)).body.results[0].outcome).toBe("unchanged");
  });

  it("a batch that changes an order under an open proposal invalidates the proposal (audited)", async () => {
    const key = await keyFor(ES);
    const number = fresh("BATP");
    const customer = `cus_b_${fresh("p").replace(/-/g, "_")}`;
    const body = order(number, {}, customer);
    expect((await batch({ orders: [body] }, key)).body.results[0].outcome).toBe("created");
    const token = await tokenFor(ES, customer);
    const prepared = await send(
      anthropicCall("prepare_refund", { order_id: number, reason: "damaged_item" }),
      headersFor({ token }),
    );
    const proposalId = (prepared.content.result as { proposal_id: string }).proposal_id;
    expect((await batch({ orders: [body, order(fresh("BATQ"))] }, key)).body.results[0].outcome).toBe("unchanged");
    expect((await db().proposal.findUniqueOrThrow({ where: { id: proposalId } })).status).toBe("pending_approval");

    const refunded = { ...body, refunds: [{ reference: `re_${fresh("x")}`, amount_minor: 100, status: "succeeded" }] };
    const after = await batch({ orders: [order(fresh("BATR")), refunded] }, key);
    expect(after.body.results.map((r: Body) => r.outcome)).toEqual(["created", "updated"]);
    expect(await db().proposal.findUniqueOrThrow({ where: { id: proposalId } })).toMatchObject({
      status: "invalidated",
      invalidationReason: "amount_no_longer_refundable",
    });
    const event = await db().auditEvent.findFirstOrThrow({ where: { proposalId, action: "proposal:invalidate" } });
    expect(event).toMatchObject({ authMethod: "integration_key", outcome: "invalidated" });
    // The refund made elsewhere is in the ledger.
    const row = (await stored(ES, number))!;
    expect(row.refunds).toEqual([
      expect.objectContaining({ origin: "external", amountMinor: 100, status: "succeeded" }),
    ]);
  });

  it("another tenant's key never sees or changes this tenant's order: it creates its own or is refused", async () => {
    const es = await keyFor(ES);
    const us = await keyFor(US);
    const number = fresh("BATT");
    const mine = order(number);
    await batch({ orders: [mine] }, es);
    const before = await stored(ES, number);

    // Same number, EUR (not the US shop's currency): refused without a word of the other tenant's order.
    const refused = await batch({ orders: [{ ...mine, total_minor: 1 }] }, us);
    expect(refused.body.results[0]).toMatchObject({ number, outcome: "refused" });
    expect(JSON.stringify(refused.body)).not.toContain(before!.id);
    // Same number and payment reference in its own currency: its own order, created.
    const theirs = await batch({ orders: [{ ...mine, currency: "USD", total_minor: 7 }] }, us);
    expect(theirs.body.results[0]).toMatchObject({ number, outcome: "created" });
    expect(await stored(ES, number)).toEqual(before);
    expect((await stored(US, number))!.totalMinor).toBe(7);
  });

  it("references the set-based path cannot take are refused as the per-order path refuses them", async () => {
    const key = await keyFor(ES);
    const held = order(fresh("BATH"));
    await batch({ orders: [held] }, key);
    const ref = held.payments[0]!.reference;
    // A new order naming a payment another order of the tenant holds; two new orders naming one new reference.
    const shared = `pay_${fresh("s")}`;
    const pay = (reference: string) => [{ ...held.payments[0]!, reference }];
    const res = await batch(
      {
        orders: [
          order(fresh("BATI"), { payments: pay(ref) }),
          order(fresh("BATJ"), { payments: pay(shared) }),
          order(fresh("BATK"), { payments: pay(shared) }),
        ],
      },
      key,
    );
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: Body) => r.outcome)).toEqual(["refused", "created", "refused"]);
    expect(res.body.results[0].problems).toEqual([
      expect.objectContaining({ path: "$.payments[0].reference", message: "belongs to another order" }),
    ]);
  });

  it("403 without the scope; 401 without a key; nothing written", async () => {
    const number = fresh("BATS");
    const readOnly = await batch({ orders: [order(number)] }, await keyFor(ES, ["orders:read"]));
    expect(readOnly.status).toBe(403);
    expect((await batch({ orders: [order(number)] }, null)).status).toBe(401);
    expect(await stored(ES, number)).toBeNull();
  });

  it("a body over its cap → 413 in the common error shape; > 1,000 orders or a number twice → 400; nothing written", async () => {
    const key = await keyFor(ES);
    const number = fresh("BATO");
    const big = { orders: [order(number), { ...order(fresh("BATO")), pad: "x".repeat(BODY_LIMITS.ordersBatch) }] };
    const tooBig = await batch(big, key);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toMatchObject({
      code: "invalid_arguments",
      problems: [expect.objectContaining({ path: "$" })],
    });

    const many = { orders: Array.from({ length: 1001 }, (_, i) => order(`${number}-${i}`)) };
    const tooMany = await batch(many, key);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.problems).toEqual([expect.objectContaining({ path: "$.orders" })]);

    const twice = await batch({ orders: [order(number), order(fresh("BATO")), order(number)] }, key);
    expect(twice.status).toBe(400);
    expect(twice.body.problems).toEqual([
      expect.objectContaining({ path: "$.orders[2].number", message: "also at $.orders[0]" }),
    ]);
    expect(await stored(ES, number)).toBeNull();
    expect(await stored(ES, `${number}-0`)).toBeNull();
  });
});

describe("the customer's phone in a batch (the set-based path: COPY for a new customer, UPDATE for a known one)", () => {
  it("stored in E.164; a line without it keeps the one on record, null clears it; a bad number is refused at its path", async () => {
    const key = await keyFor(ES);
    const customer = `cus_b_${fresh("phone")}`;
    const phoneOf = async () => (await db().customer.findFirstOrThrow({ where: { id: customer } })).phone;
    const lastBatch = async () =>
      (
        await db().auditEvent.findFirstOrThrow({
          where: { tenantId: await tenantOf(ES), action: "orders:batch" },
          orderBy: { pos: "desc" },
        })
      ).data as Body;
    const withPhone = (phone?: string | null, name = "Jane Doe") => {
      const o = order(fresh("BATPH"), {}, customer);
      return { ...o, customer: { ...o.customer, name, ...(phone !== undefined ? { phone } : {}) } };
    };

    expect((await batch({ orders: [withPhone("+34 612 34 56 78")] }, key)).body.results[0].outcome).toBe("created");
    expect(await lastBatch()).toMatchObject({ setBased: 1 });
    expect(await phoneOf()).toBe("+34612345678");
    await batch({ orders: [withPhone(undefined, "Jane D. Doe")] }, key); // the name changes: the row is updated
    expect(await lastBatch()).toMatchObject({ setBased: 1 });
    expect(await phoneOf()).toBe("+34612345678");
    await batch({ orders: [withPhone("+14155552671")] }, key);
    expect(await phoneOf()).toBe("+14155552671");
    await batch({ orders: [withPhone(null)] }, key);
    expect(await lastBatch()).toMatchObject({ setBased: 1 });
    expect(await phoneOf()).toBeNull();

    const bad = withPhone("612345678");
    const refused = await batch({ orders: [bad] }, key);
    expect(refused.body.results[0]).toMatchObject({
      outcome: "refused",
      problems: [expect.objectContaining({ path: "$.customer.phone" })],
    });
    expect(await stored(ES, bad.number)).toBeNull();
  });
});
