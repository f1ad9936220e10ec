// The Orders API (docs/systems-of-record.md): integration keys issued by an admin (shown once, hash stored,
// scopes, expiry, revoke, audited), PUT/GET /api/v1/orders/{number} through the real route handlers: idempotent
// upserts, the problems shape, 401/403, tenant isolation, the customer linked by the end-user token's `sub`,
// and a change that invalidates an open proposal. All against the real database.
import { describe, expect, it } from "vitest";
import { GET as orderGET, PUT as orderPUT } from "@/app/api/v1/orders/[number]/route";
import { isAppError } from "@/lib/domain/outcome";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { hashIntegrationKey } from "@/lib/server/integrations/authenticate-integration-key";
import { issueIntegrationKey } from "@/lib/server/integrations/issue-integration-key";
import { listIntegrationKeys } from "@/lib/server/integrations/list-integration-keys";
import { revokeIntegrationKey } from "@/lib/server/integrations/revoke-integration-key";
import { actorFor, staffOf } from "../support/actors";
import { anthropicCall, ES, headersFor, send, tokenFor, US, webKey } from "./gateway-support";

const adminOf = (slug: string) => actorFor(staffOf(slug, "admin").email);
const keyFor = async (slug: string, scopes: string[] = ["orders:write", "orders:read"]) =>
  (await issueIntegrationKey(await adminOf(slug), { label: "Shop", scopes })).key;

let seq = 0;
const fresh = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++seq}`;

function orderBody(over: Record<string, unknown> = {}, customer = "cus_api_jane") {
  return {
    customer: { id: customer, email: "jane.doe@example.com", name: "Jane Doe" },
    currency: "EUR",
    total_minor: 5000,
    status: "paid",
    placed_at: "2026-11-30T10:00:00Z",
    items: [{ sku: "MUG-1", name: "Mug", quantity: 1, unit_minor: 5000 }],
    payments: [
      {
        provider: "manual",
        reference: `pay_${fresh("m")}`,
        method: "bank_transfer",
        captured_minor: 5000,
        holder: "Jane Doe",
        display: "IBAN ES•• 4321",
      },
    ],
    refunds: [],
    ...over,
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read by field name in assertions
type Body = Record<string, any>;

async function put(number: string, body: unknown, key: string | null) {
  const res = await orderPUT(
    new Request(`http://localhost/api/v1/orders/${number}`, {
      method: "PUT",
      headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    { params: Promise.resolve({ number }) },
  );
  return { status: res.status, body: (await res.json()) as Body };
}
async function get(number: string, key: string) {
  const res = await orderGET(
    new Request(`http://localhost/api/v1/orders/${number}`, { headers: { authorization: `Bearer ${key}` } }),
    {
      params: Promise.resolve({ number }),
    },
  );
  return { status: res.status, body: (await res.json()) as Body };
}

describe("integration keys", () => {
  it("shown once and stored as a hash; listed without it; revoked → 401 at once; every change audited", async () => {
    const admin = await adminOf(ES);
    const issued = await issueIntegrationKey(admin, { label: "Shopify bridge", scopes: ["orders:write"] });
    expect(issued.key).toMatch(/^igk_[A-Za-z0-9_-]{43}$/);
    const row = await db().integrationKey.findUniqueOrThrow({ where: { id: issued.id } });
    expect(row.keyHash).toBe(hashIntegrationKey(issued.key));
    expect(JSON.stringify(row)).not.toContain(issued.key);
    expect((await put(fresh("ORD"), orderBody(), issued.key)).status).toBe(201);

    await revokeIntegrationKey(admin, issued.id);
    const after = await put(fresh("ORD"), orderBody(), issued.key);
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ code: "unauthenticated" });
    expect((await revokeIntegrationKey(admin, issued.id)).alreadyRevoked).toBe(true);

    const events = await db().auditEvent.findMany({
      where: {
        tenantId: admin.tenantId,
        action: { in: ["admin:issue_integration_key", "admin:revoke_integration_key"] },
      },
    });
    expect(events.map((e) => e.action).sort()).toEqual(["admin:issue_integration_key", "admin:revoke_integration_key"]);
    expect(JSON.stringify(events)).not.toContain(issued.key);
  });

  it("listed without the key or its hash; only admins issue keys", async () => {
    const admin = await adminOf(ES);
    const created = await issueIntegrationKey(admin, { label: "ERP", scopes: ["orders:read", "orders:read"] });
    expect(created.scopes).toEqual(["orders:read"]);
    const text = JSON.stringify(await listIntegrationKeys(admin));
    expect(text).toContain(created.id);
    expect(text).not.toContain(created.key);
    expect(text).not.toContain(hashIntegrationKey(created.key));
    expect(JSON.stringify(await listIntegrationKeys(await adminOf(US)))).not.toContain(created.id);
    const reviewer = await actorFor(staffOf(ES, "reviewer").email);
    await expect(issueIntegrationKey(reviewer, { label: "x", scopes: ["orders:write"] })).rejects.toMatchObject({
      code: "permission_denied",
    });
    await expect(revokeIntegrationKey(await adminOf(US), created.id)).rejects.toMatchObject({ code: "not_found" });
  });

  it("refuses a past expiry, unknown scopes, and answers 401 for an expired key", async () => {
    const admin = await adminOf(ES);
    const refusal = async (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: unknown) => (isAppError(e) ? e.code : "thrown"),
      );
    expect(
      await refusal(
        issueIntegrationKey(admin, { label: "x", scopes: ["orders:write"], expiresAt: "2020-01-01T00:00:00Z" }),
      ),
    ).toBe("invalid_arguments");
    expect(await refusal(issueIntegrationKey(admin, { label: "x", scopes: ["refunds:write"] }))).toBe(
      "invalid_arguments",
    );
    const issued = await issueIntegrationKey(admin, {
      label: "short",
      scopes: ["orders:write"],
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    await db().integrationKey.update({ where: { id: issued.id }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect((await put(fresh("ORD"), orderBody(), issued.key)).status).toBe(401);
  });
});

describe("PUT/GET /api/v1/orders/{number}", () => {
  it("creates (201), repeats unchanged (200, changed:false), updates (200, changed:true); GET returns it with the refundable amount", async () => {
    const key = await keyFor(ES);
    const number = fresh("ORD");
    const body = orderBody();
    const created = await put(number, body, key);
    expect(created).toMatchObject({
      status: 201,
      body: { number, refundable: { minor: 5000, currency: "EUR" }, changed: true },
    });
    expect(await put(number, body, key)).toMatchObject({ status: 200, body: { changed: false } });
    const refunded = {
      ...body,
      refunds: [
        { reference: `re_ext_${number}`, amount_minor: 1200, status: "succeeded", created_at: "2026-11-30T12:00:00Z" },
      ],
    };
    expect(await put(number, refunded, key)).toMatchObject({
      status: 200,
      body: { changed: true, refundable: { minor: 3800 } },
    });
    expect(await put(number, refunded, key)).toMatchObject({
      status: 200,
      body: { changed: false, refundable: { minor: 3800 } },
    });

    const got = await get(number, key);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      number,
      status: "partially_refunded",
      captured_minor: 5000,
      refundable: { minor: 3800, currency: "EUR" },
    });
    expect(got.body.refunds).toEqual([
      expect.objectContaining({ reference: `re_ext_${number}`, origin: "external", amount_minor: 1200 }),
    ]);
    const rows = await db().order.count({ where: { number } });
    expect(rows).toBe(1);

    const events = await db().auditEvent.findMany({
      where: { action: "orders:upsert", data: { path: ["number"], equals: number } },
      orderBy: { pos: "asc" },
    });
    expect(events.map((e) => e.outcome)).toEqual(["created", "unchanged", "updated", "unchanged"]);
    // Personal data never in clear in the audit trail.
    expect(JSON.stringify(events)).not.toContain("jane.doe@example.com");
    expect(JSON.stringify(events)).not.toContain("Jane Doe");
  });

  it("bad input → 400 with every problem and its path; not JSON → 400; never a 500", async () => {
    const key = await keyFor(ES);
    const bad = await put(fresh("ORD"), { ...orderBody(), total_minor: -1, amount: 5, payments: [] }, key);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("invalid_arguments");
    const paths = (bad.body.problems as { path: string }[]).map((p) => p.path);
    expect(paths).toEqual(expect.arrayContaining(["$.total_minor", "$.payments"]));
    expect(bad.body.problems[0]).toEqual({
      path: expect.any(String),
      expected: expect.any(String),
      message: expect.any(String),
    });
    expect(await put(fresh("ORD"), "{not json", key)).toMatchObject({
      status: 400,
      body: { code: "invalid_arguments", problems: [{ path: "$" }] },
    });
    expect((await put("bad number!", orderBody(), key)).status).toBe(400);
    // Semantics a schema cannot see: the tenant's currency, refunds beyond the capture.
    const wrongCurrency = await put(fresh("ORD"), orderBody({ currency: "USD" }), key);
    expect(wrongCurrency.body.problems).toEqual([expect.objectContaining({ path: "$.currency", expected: "EUR" })]);
    const tooMuch = await put(
      fresh("ORD"),
      orderBody({ refunds: [{ reference: `re_${fresh("x")}`, amount_minor: 5001, status: "pending" }] }),
      key,
    );
    expect(tooMuch.body.problems).toEqual([expect.objectContaining({ path: "$.payments[0].captured_minor" })]);
    // Exactly the capture is fine; a failed refund holds nothing back.
    const exact = orderBody({
      refunds: [
        { reference: `re_${fresh("x")}`, amount_minor: 5000, status: "succeeded" },
        { reference: `re_${fresh("y")}`, amount_minor: 5000, status: "failed" },
      ],
    });
    expect(await put(fresh("ORD"), exact, key)).toMatchObject({ status: 201, body: { refundable: { minor: 0 } } });
  });

  // Issue #34 finding 7: values the database cannot hold (int4 money, timestamps outside years 1–9999, NUL and
  // lone surrogates in text and jsonb) answered 500. Each is refused by the schema at its own path, and nothing
  // is written. The valid body has every optional part, so every string field is reached.
  it("values the database cannot hold → 400 invalid_arguments with the problem's path, never a 500, nothing written", async () => {
    const key = await keyFor(ES);
    const INT4_MAX = 2_147_483_647;
    const full = () =>
      orderBody({
        refunds: [
          {
            reference: `re_${fresh("e")}`,
            amount_minor: 100,
            status: "succeeded",
            created_at: "2026-11-30T12:00:00Z",
            payment_reference: "",
          },
        ],
      }) as Body;
    const payment = (captured: number) => ({
      ...(full().payments[0] as Body),
      reference: `pay_${fresh("p")}`,
      captured_minor: captured,
    });
    type Edge = [string, (b: Body) => void, string[]];
    const edges: Edge[] = [
      ["money over 2^31-1", (b) => (b.total_minor = INT4_MAX + 1), ["$.total_minor"]],
      ["negative money", (b) => (b.total_minor = -1), ["$.total_minor"]],
      ["fractional money", (b) => (b.total_minor = 10.5), ["$.total_minor"]],
      ["1e308", (b) => (b.total_minor = 1e308), ["$.total_minor"]],
      ["a capture over 2^31-1", (b) => (b.payments[0].captured_minor = INT4_MAX + 1), ["$.payments[0].captured_minor"]],
      [
        "captures summing over 2^31-1",
        (b) => {
          b.payments = [payment(2_000_000_000), payment(2_000_000_000)];
          b.refunds[0].payment_reference = b.payments[0].reference;
        },
        ["$.payments"],
      ],
      ["a refund over 2^31-1", (b) => (b.refunds[0].amount_minor = INT4_MAX + 1), ["$.refunds[0].amount_minor"]],
      ["an item price over 2^31-1", (b) => (b.items[0].unit_minor = INT4_MAX + 1), ["$.items[0].unit_minor"]],
      ["year 0000", (b) => (b.placed_at = "0000-01-01T00:00:00Z"), ["$.placed_at"]],
      ["year 10000", (b) => (b.placed_at = "10000-01-01T00:00:00Z"), ["$.placed_at"]],
      ["year 0 once in UTC", (b) => (b.placed_at = "0001-01-01T00:30:00+01:00"), ["$.placed_at"]],
      ["30 February", (b) => (b.placed_at = "2026-02-30T10:00:00Z"), ["$.placed_at"]],
      ["a refund in year 0000", (b) => (b.refunds[0].created_at = "0000-06-01T00:00:00Z"), ["$.refunds[0].created_at"]],
      ["a name over its length", (b) => (b.customer.name = "x".repeat(201)), ["$.customer.name"]],
      ["a sku over its length", (b) => (b.items[0].sku = "x".repeat(65)), ["$.items[0].sku"]],
      ["no payment", (b) => (b.payments = []), ["$.payments"]],
      ["501 items", (b) => (b.items = Array.from({ length: 501 }, () => b.items[0])), ["$.items"]],
      ["201 refunds", (b) => (b.refunds = Array.from({ length: 201 }, () => b.refunds[0])), ["$.refunds"]],
      ["an unknown currency", (b) => (b.currency = "XXX"), ["$.currency"]],
      ["a lowercase currency", (b) => (b.currency = "eur"), ["$.currency"]],
    ];
    // NUL and a lone surrogate (high, then low) in every string field.
    const strings: [string, (b: Body, bad: string) => void][] = [
      ["customer.id", (b, x) => (b.customer.id += x)],
      ["customer.email", (b, x) => (b.customer.email = `jane${x}@example.com`)],
      ["customer.name", (b, x) => (b.customer.name += x)],
      ["currency", (b, x) => (b.currency = `EU${x}`)],
      ["status", (b, x) => (b.status += x)],
      ["placed_at", (b, x) => (b.placed_at += x)],
      ["items[0].sku", (b, x) => (b.items[0].sku += x)],
      ["items[0].name", (b, x) => (b.items[0].name += x)],
      ["payments[0].provider", (b, x) => (b.payments[0].provider += x)],
      ["payments[0].reference", (b, x) => (b.payments[0].reference += x)],
      ["payments[0].method", (b, x) => (b.payments[0].method += x)],
      ["payments[0].holder", (b, x) => (b.payments[0].holder += x)],
      ["payments[0].display", (b, x) => (b.payments[0].display += x)],
      ["refunds[0].reference", (b, x) => (b.refunds[0].reference += x)],
      ["refunds[0].status", (b, x) => (b.refunds[0].status += x)],
      ["refunds[0].created_at", (b, x) => (b.refunds[0].created_at += x)],
      ["refunds[0].payment_reference", (b, x) => (b.refunds[0].payment_reference = `${b.payments[0].reference}${x}`)],
    ];
    for (const [field, set] of strings)
      for (const [what, bad] of [
        ["NUL", "\u0000"],
        ["a lone high surrogate", "\uD800"],
        ["a lone low surrogate", "a\uDC00"],
      ] as const)
        edges.push([`${what} in ${field}`, (b) => set(b, bad), [`$.${field}`]]);

    const answers: string[] = [];
    for (const [name, mutate, paths] of edges) {
      const body = full();
      body.refunds[0].payment_reference = body.payments[0].reference;
      mutate(body);
      const number = fresh("EDGE");
      const res = await put(number, body, key);
      const got = ((res.body.problems ?? []) as { path: string }[]).map((p) => p.path);
      if (res.status !== 400 || res.body.code !== "invalid_arguments" || !paths.every((p) => got.includes(p)))
        answers.push(`${name}: ${res.status} ${String(res.body.code)} ${JSON.stringify(got)}`);
      if ((await db().order.count({ where: { number } })) !== 0) answers.push(`${name}: written`);
    }
    expect(answers).toEqual([]);
    expect(edges.length).toBeGreaterThanOrEqual(20 + 17 * 3);
    // The same body without the bad value is accepted: the refusals are the values', not the body's.
    const ok = full();
    ok.refunds[0].payment_reference = ok.payments[0].reference;
    ok.total_minor = INT4_MAX;
    ok.payments[0].captured_minor = INT4_MAX;
    ok.placed_at = "0001-01-01T00:00:00Z";
    expect((await put(fresh("EDGE"), ok, key)).status).toBe(201);
  });

  it("a payment or refund reference stored under another order of the tenant is refused at its own path", async () => {
    const key = await keyFor(ES);
    const refund = { reference: `re_${fresh("r")}`, amount_minor: 1000, status: "succeeded" };
    const first = orderBody({ refunds: [refund] });
    expect((await put(fresh("ORD"), first, key)).status).toBe(201);
    // A second order that names the first one's payment (second in its list) and refund: both refused, nothing stored.
    const own = orderBody().payments[0]!;
    const number = fresh("ORD");
    const moved = await put(
      number,
      orderBody({
        payments: [own, { ...first.payments[0], captured_minor: 0 }],
        total_minor: 5000,
        refunds: [{ ...refund, payment_reference: own.reference, amount_minor: 10 }],
      }),
      key,
    );
    expect(moved).toMatchObject({ status: 400, body: { code: "invalid_arguments" } });
    expect(moved.body.problems).toEqual([
      { path: "$.payments[1].reference", expected: "a payment of this order", message: "belongs to another order" },
      { path: "$.refunds[0].reference", expected: "a refund of this order", message: "belongs to another order" },
    ]);
    expect((await get(number, key)).status).toBe(404);
  });

  it("401 without or with a wrong key; 403 for a key without the scope", async () => {
    expect((await put(fresh("ORD"), orderBody(), null)).status).toBe(401);
    expect((await put(fresh("ORD"), orderBody(), `igk_${"x".repeat(43)}`)).status).toBe(401);
    const readOnly = await keyFor(ES, ["orders:read"]);
    const refused = await put(fresh("ORD"), orderBody(), readOnly);
    expect(refused).toMatchObject({
      status: 403,
      body: { code: "permission_denied", error: { reason: "scope", scope: "orders:write" } },
    });
    const writeOnly = await keyFor(ES, ["orders:write"]);
    expect((await get("ORD-1001", writeOnly)).status).toBe(403);
  });

  it("another tenant's key sees nothing and cannot take over a payment or refund; customer ids are per tenant", async () => {
    const es = await keyFor(ES);
    const us = await keyFor(US);
    const number = fresh("ORD");
    const body = orderBody({}, "cus_api_shared");
    expect((await put(number, body, es)).status).toBe(201);
    const foreign = await get(number, us);
    expect(foreign).toMatchObject({ status: 404, body: { code: "not_found" } });
    expect(JSON.stringify(foreign.body)).not.toContain("Jane");
    const demoOrder = await get("ORD-1001", us);
    expect(demoOrder.status).toBe(404);
    // The US shop's own "cus_api_shared" is another customer: stored as the US shop's, the ES customer untouched,
    // and nothing in the answer says the id exists elsewhere.
    const usNumber = fresh("ORD");
    const usBody = {
      ...orderBody({ currency: "USD" }, "cus_api_shared"),
      customer: { id: "cus_api_shared", email: "sam.roe@example.com", name: "Sam Roe" },
    };
    const mine = await put(usNumber, usBody, us);
    expect(mine.status).toBe(201);
    expect(JSON.stringify(mine.body)).not.toMatch(/Jane|tienda|another/i);
    const stored = await db().customer.findMany({
      where: { id: "cus_api_shared" },
      select: { name: true, email: true, tenant: { select: { slug: true } } },
    });
    expect(stored.map((c) => [c.tenant.slug, c.name, c.email])).toEqual(
      expect.arrayContaining([
        [ES, "Jane Doe", "jane.doe@example.com"],
        [US, "Sam Roe", "sam.roe@example.com"],
      ]),
    );
    expect(stored).toHaveLength(2);
    // Each shop's agent acting for "cus_api_shared" sees its own shop's order only.
    const esHeaders = headersFor({ key: webKey(ES), token: await tokenFor(ES, "cus_api_shared") });
    const usHeaders = headersFor({ key: webKey(US), token: await tokenFor(US, "cus_api_shared") });
    const lookup = async (n: string, h: Record<string, string>) =>
      (await send(anthropicCall("lookup_order", { order_id: n }), h)).content;
    expect(await lookup(number, esHeaders)).toMatchObject({ code: "ok", result: { order_id: number } });
    expect(await lookup(usNumber, usHeaders)).toMatchObject({ code: "ok", result: { order_id: usNumber } });
    const crossed = await lookup(usNumber, esHeaders);
    expect(crossed.code).toBe("not_found");
    expect((await lookup(number, usHeaders)).code).toBe("not_found");
    expect(JSON.stringify(crossed)).not.toContain("Sam");
    const theirPayment = orderBody({ currency: "USD", payments: body.payments }, "cus_api_us_only");
    expect((await put(fresh("ORD"), theirPayment, us)).status).toBe(201); // payment references are per tenant
  });

  it("the customer is the end-user token's sub: the agent finds the pushed order and prepares the server-derived amount", async () => {
    const key = await keyFor(ES);
    const number = fresh("ORD");
    const customer = `cus_api_${fresh("c").replace(/-/g, "_")}`;
    await put(
      number,
      orderBody({ refunds: [{ reference: `re_${fresh("x")}`, amount_minor: 700, status: "succeeded" }] }, customer),
      key,
    );
    const token = await tokenFor(ES, customer);
    const looked = await send(anthropicCall("lookup_order", { order_id: number }), headersFor({ token }));
    expect(looked.content).toMatchObject({
      code: "ok",
      result: { order_id: number, refundable: { minor: 4300, currency: "EUR" } },
    });
    const prepared = await send(
      anthropicCall("prepare_refund", { order_id: number, reason: "damaged_item" }),
      headersFor({ token }),
    );
    expect(prepared.content).toMatchObject({
      code: "approval_required",
      result: { amount: { minor: 4300, currency: "EUR" } },
    });
    // Another customer's token does not see it.
    const other = await send(
      anthropicCall("lookup_order", { order_id: number }),
      headersFor({ token: await tokenFor(ES, "cus_api_someone_else") }),
    );
    expect(other.content.code).toBe("not_found");
  });

  it("a change that leaves less than an open proposal invalidates it (audited); a repeat of the same body does not", async () => {
    const key = await keyFor(ES);
    const number = fresh("ORD");
    const customer = `cus_api_${fresh("c").replace(/-/g, "_")}`;
    const body = orderBody({}, customer);
    await put(number, body, key);
    const token = await tokenFor(ES, customer);
    const prepared = await send(
      anthropicCall("prepare_refund", { order_id: number, reason: "damaged_item" }),
      headersFor({ token }),
    );
    const proposalId = (prepared.content.result as { proposal_id: string }).proposal_id;
    expect((await put(number, body, key)).body.changed).toBe(false);
    expect((await db().proposal.findUniqueOrThrow({ where: { id: proposalId } })).status).toBe("pending_approval");

    // Refunded elsewhere: 1 € back to the customer at the shop's counter.
    const after = await put(
      number,
      { ...body, refunds: [{ reference: `re_${fresh("x")}`, amount_minor: 100, status: "succeeded" }] },
      key,
    );
    expect(after.body).toMatchObject({ changed: true, refundable: { minor: 4900 } });
    const p = await db().proposal.findUniqueOrThrow({ where: { id: proposalId } });
    expect(p).toMatchObject({ status: "invalidated", invalidationReason: "amount_no_longer_refundable" });
    const event = await db().auditEvent.findFirstOrThrow({ where: { proposalId, action: "proposal:invalidate" } });
    expect(event).toMatchObject({ actorType: "system", authMethod: "integration_key", outcome: "invalidated" });

    // Cancelling the order invalidates the next one too.
    const again = await send(
      anthropicCall("prepare_refund", { order_id: number, reason: "damaged_item" }),
      headersFor({ token }),
    );
    const second = (again.content.result as { proposal_id: string }).proposal_id;
    await put(number, { ...body, status: "canceled", refunds: [] }, key);
    expect((await db().proposal.findUniqueOrThrow({ where: { id: second } })).invalidationReason).toBe(
      "order_cancelled",
    );
  });
});

describe("fulfilment and shipping address (what the cancellation and address-change kinds derive from)", () => {
  const address = {
    name: "Jane  Doe",
    line1: " 10 rue de Rivoli ",
    line2: null,
    city: "Paris",
    postal_code: "75001",
    region: null,
    country: "fr",
  };

  it("stored normalised, returned by GET and lookup-ready; absent keeps what was pushed; null clears the address", async () => {
    const key = await keyFor(ES);
    const number = fresh("ORD-SHIP");
    const base = orderBody(); // one payment reference for every push of this order
    const push = (over: Record<string, unknown>) => put(number, { ...base, ...over }, key);
    expect((await push({ shipping_address: address })).status).toBe(201);
    const normalised = {
      name: "Jane Doe",
      line1: "10 rue de Rivoli",
      line2: null,
      city: "Paris",
      postal_code: "75001",
      region: null,
      country: "FR",
    };
    expect((await get(number, key)).body).toMatchObject({ fulfilment: "unfulfilled", shipping_address: normalised });
    const row = await db().order.findFirstOrThrow({ where: { number } });
    expect(row.shippingAddress).toEqual({ ...normalised, postalCode: "75001", postal_code: undefined });

    // A push without the fields (a CSV line has no such columns) changes neither.
    const shipped = await push({ shipping_address: address, fulfilment: "shipped" });
    expect(shipped.body.changed).toBe(true);
    expect((await push({})).body.changed).toBe(false);
    expect((await get(number, key)).body).toMatchObject({ fulfilment: "shipped", shipping_address: normalised });
    // The same address written differently is the same address: nothing changed.
    expect((await push({ shipping_address: { ...address, city: " Paris " } })).body.changed).toBe(false);
    expect((await push({ shipping_address: null })).body.changed).toBe(true);
    expect((await get(number, key)).body.shipping_address).toBeNull();
  });

  it("an address that does not normalise is refused at each field's path, and nothing is written", async () => {
    const key = await keyFor(ES);
    const number = fresh("ORD-SHIP");
    const pathsOf = (body: Body) =>
      (body.error?.problems ?? body.problems ?? []).map((p: { path: string }) => p.path) as string[];
    const lost = await put(number, orderBody({ fulfilment: "lost" }), key);
    expect(lost.status).toBe(400);
    expect(pathsOf(lost.body)).toEqual(["$.fulfilment"]);
    const bad = await put(number, orderBody({ shipping_address: { ...address, country: "XX", line1: " " } }), key);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("invalid_arguments");
    // Every problem of the address, each at its own path.
    expect(pathsOf(bad.body).sort()).toEqual(["$.shipping_address.country", "$.shipping_address.line1"]);
    const wrongCode = await put(number, orderBody({ shipping_address: { ...address, postal_code: "7500" } }), key);
    expect(wrongCode.status).toBe(400);
    expect(JSON.stringify(wrongCode.body)).toContain("shipping_address.postal_code");
    const missingKey = await put(number, orderBody({ shipping_address: { ...address, line2: undefined } }), key);
    expect(missingKey.status).toBe(400);
    expect(await db().order.count({ where: { number } })).toBe(0);
  });
});

describe("the customer's phone (what an SMS bulk message and a phone contact change read)", () => {
  const phoneOnRecord = async (customer: string) =>
    (await db().customer.findFirstOrThrow({ where: { id: customer, tenant: { slug: ES } } })).phone;

  it("stored in E.164 and returned by GET; absent keeps it, null clears it; never in the audit rows", async () => {
    const key = await keyFor(ES);
    const customer = fresh("cus_phone");
    const number = fresh("ORD-PH");
    const base = orderBody({}, customer);
    const push = (phone?: string | null, name = base.customer.name) =>
      put(number, { ...base, customer: { ...base.customer, name, ...(phone !== undefined ? { phone } : {}) } }, key);

    expect((await push("+34 612 34 56 78")).status).toBe(201);
    expect(await phoneOnRecord(customer)).toBe("+34612345678");
    expect((await get(number, key)).body.customer).toEqual({
      id: customer,
      email: "jane.doe@example.com",
      name: "Jane Doe",
      phone: "+34612345678",
    });
    // A push without a phone (a CSV line has no such column) keeps it, even when it changes the customer's name;
    // another number replaces it; null clears it.
    expect((await push(undefined, "Jane D. Doe")).status).toBe(200);
    expect(await phoneOnRecord(customer)).toBe("+34612345678");
    expect((await push("+1 (415) 555-2671")).status).toBe(200);
    expect(await phoneOnRecord(customer)).toBe("+14155552671");
    expect((await push(null)).status).toBe(200);
    expect(await phoneOnRecord(customer)).toBeNull();

    // Personal data: the audit keeps neither number, in any form.
    for (const digits of ["612345678", "6123456", "4155552671"]) {
      const { rows } = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM "AuditEvent" a WHERE strpos(a::text, ${digits}) > 0`.execute(sqlPool());
      expect(rows[0]!.n, digits).toBe(0);
    }
  });

  it("a number that is not E.164 or not a real number is refused at $.customer.phone, and nothing is written", async () => {
    const key = await keyFor(ES);
    for (const phone of ["612345678", "+999 1234567", "+34 12", "call me", "+".padEnd(40, "1")]) {
      const customer = fresh("cus_badphone");
      const number = fresh("ORD-BP");
      const base = orderBody({}, customer);
      const res = await put(number, { ...base, customer: { ...base.customer, phone } }, key);
      expect(res.status, phone).toBe(400);
      expect(res.body.problems, phone).toEqual(
        expect.arrayContaining([expect.objectContaining({ path: "$.customer.phone" })]),
      );
      expect(await db().customer.count({ where: { id: customer } })).toBe(0);
      expect(await db().order.count({ where: { number } })).toBe(0);
    }
  });
});
