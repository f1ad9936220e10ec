// Whose payment it is (docs/systems-of-record.md "Whose payment it is"; issue #34 findings 1, 2, 3, 8), through the
// real sandbox provider process, the real Orders API route, the import, the gateway and the installation's webhook
// route behind a real HTTP server. tienda-es (EUR) and shop-us (USD) share the installation's provider account:
// 1. a payment intent shop-us holds cannot be claimed by tienda-es (API and import; the index backs it up);
// 2. a payment the provider holds in another currency or capture is never prepared nor paid;
// 3. another tenant's rows never make the shared webhook drop an event about shop-us's payment, and an event that
//    cannot be placed is counted;
// 8. a payment switched from stripe to manual under an open proposal invalidates it (pending and approved).
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as webhookPOST } from "@/app/api/payments/webhook/route";
import { PUT as orderPUT } from "@/app/api/v1/orders/[number]/route";
import { removeProviderConnection } from "@/lib/server/admin/provider-connection/remove-provider-connection";
import { setProviderConnection } from "@/lib/server/admin/provider-connection/set-provider-connection";
import { db } from "@/lib/server/db/client";
import { executeRefund } from "@/lib/server/executions/execute-refund";
import { issueIntegrationKey } from "@/lib/server/integrations/issue-integration-key";
import { importOrders, type LineOutcome } from "@/lib/server/orders/import-orders";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { metrics } from "@/lib/server/telemetry/metrics";
import type { SandboxControl } from "@/provider-sandbox/control-client";
import { actorFor, staffOf } from "../support/actors";
import { startGatewayServer, type RouteHandler } from "../support/gateway-http-server";
import { startSandboxProvider, type SandboxProvider } from "../support/sandbox-provider";
import { anthropicCall, ES, headersFor, send, tokenFor, US, webKey } from "./gateway-support";

const hex = () => randomUUID().replace(/-/g, "");
const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString("base64url")}`;
const CURRENCY = { [ES]: "EUR", [US]: "USD" } as const;

let sandbox: SandboxProvider;
let control: SandboxControl;
let server: Awaited<ReturnType<typeof startGatewayServer>>;
const keys: Record<string, string> = {};
/** What reached the installation's endpoint: the event type, its payment intent and the status answered. */
const deliveries: { type: string; pi: string; status: number }[] = [];

beforeAll(async () => {
  process.env.SECRETS_KEY = randomBytes(32).toString("base64");
  const counted: RouteHandler = async (req) => {
    const event = (await req.clone().json()) as { type: string; data: { object: { payment_intent: string } } };
    const res = await webhookPOST(req);
    deliveries.push({ type: event.type, pi: event.data.object.payment_intent, status: res.status });
    return res;
  };
  server = await startGatewayServer({ "/api/payments/webhook": { methods: { POST: counted } } });
  sandbox = await startSandboxProvider({
    webhook: { url: `${server.url}/api/payments/webhook`, secret: WEBHOOK_SECRET },
  });
  control = sandbox.control;
  process.env.PAYMENT_PROVIDER_LIVE_READS = "1";
  for (const slug of [ES, US])
    keys[slug] = (
      await issueIntegrationKey(await actorFor(staffOf(slug, "admin").email), {
        label: "shop",
        scopes: ["orders:write"],
      })
    ).key;
});
afterAll(async () => {
  process.env.PAYMENT_PROVIDER_LIVE_READS = "0";
  delete process.env.SECRETS_KEY;
  await sandbox?.stop();
  await server?.close();
});

async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Pay = { provider?: "stripe" | "manual"; pi: string; capturedMinor: number };

function orderBody(slug: string, customer: string, pay: Pay) {
  return {
    customer: { id: customer, email: "sam@example.com", name: "Sam Ortega" },
    currency: CURRENCY[slug as keyof typeof CURRENCY],
    total_minor: pay.capturedMinor,
    status: "paid",
    placed_at: "2026-11-30T10:00:00Z",
    payments: [
      {
        provider: pay.provider ?? "stripe",
        reference: pay.pi,
        method: "card",
        captured_minor: pay.capturedMinor,
        holder: "Sam Ortega",
        display: "Visa •••• 4242",
      },
    ],
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read by field name in assertions
type Body = Record<string, any>;

async function put(slug: string, number: string, customer: string, pay: Pay) {
  const res = await orderPUT(
    new Request(`http://localhost/api/v1/orders/${number}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${keys[slug]}`, "content-type": "application/json" },
      body: JSON.stringify(orderBody(slug, customer, pay)),
    }),
    { params: Promise.resolve({ number }) },
  );
  return { status: res.status, body: (await res.json()) as Body };
}

/** A payment intent at the installation's account (`currency`, `amount`) and, when `pushed`, its order in `slug`. */
async function paidOrder(
  slug: string,
  opts: { amount: number; currency?: string; pushedMinor?: number; pi?: string } = { amount: 10_000 },
) {
  const pi = opts.pi ?? `pi_own_${hex().slice(0, 20)}`;
  if (!opts.pi)
    await control.createPaymentIntent({
      id: pi,
      amount: opts.amount,
      currency: (opts.currency ?? CURRENCY[slug as keyof typeof CURRENCY]).toLowerCase(),
    });
  const number = `OWN-${hex().slice(0, 10).toUpperCase()}`;
  const customer = `cus_own_${hex().slice(0, 14)}`;
  const pushed = await put(slug, number, customer, { pi, capturedMinor: opts.pushedMinor ?? opts.amount });
  return { pi, number, customer, pushed, token: await tokenFor(slug, customer) };
}

const prepare = async (slug: string, number: string, customer: string) =>
  send(
    anthropicCall("prepare_refund", { order_id: number, reason: "damaged_item" }),
    headersFor({ key: webKey(slug), token: await tokenFor(slug, customer) }),
  );
const reviewerOf = (slug: string) => actorFor(staffOf(slug, "reviewer").email);
const proposalOf = (id: string) => db().proposal.findUniqueOrThrow({ where: { id } });
const webhookCount = async (result: string) =>
  (await metrics().providerWebhookEvents.get()).values.find((v) => v.labels.result === result)?.value ?? 0;

describe("a payment reference another tenant holds (finding 1)", () => {
  it("the Orders API and the import refuse shop-us's payment intent for tienda-es, naming no one; the index backs it up", async () => {
    const us = await paidOrder(US, { amount: 129_900 });
    expect(us.pushed.status).toBe(201);

    const number = `OWN-${hex().slice(0, 10).toUpperCase()}`;
    const claimed = await put(ES, number, `cus_own_${hex().slice(0, 14)}`, { pi: us.pi, capturedMinor: 129_900 });
    expect(claimed).toMatchObject({
      status: 400,
      body: {
        code: "invalid_arguments",
        problems: [{ path: "$.payments[0].reference", message: "not available" }],
      },
    });
    const said = JSON.stringify(claimed.body);
    for (const secret of [US, us.number, us.customer, "USD"]) expect(said).not.toContain(secret);
    expect(await db().order.count({ where: { number } })).toBe(0);

    // The same line through `orders:import` (the same upsert): refused, the others of the file go on.
    const dir = mkdtempSync(join(tmpdir(), "payment-ownership-"));
    const file = join(dir, "orders.ndjson");
    const okNumber = `OWN-${hex().slice(0, 10).toUpperCase()}`;
    writeFileSync(
      file,
      [
        JSON.stringify({ number, ...orderBody(ES, `cus_own_${hex().slice(0, 14)}`, { pi: us.pi, capturedMinor: 1 }) }),
        JSON.stringify({
          number: okNumber,
          ...orderBody(ES, `cus_own_${hex().slice(0, 14)}`, {
            provider: "manual",
            pi: `pay_${hex()}`,
            capturedMinor: 1,
          }),
        }),
      ].join("\n") + "\n",
    );
    const outcomes: LineOutcome[] = [];
    const summary = await importOrders({ tenantSlug: ES, file, onLine: (o) => outcomes.push(o) });
    expect(summary).toMatchObject({ created: 1, refused: [1] });
    expect(outcomes[0]).toMatchObject({
      outcome: "refused",
      code: "invalid_arguments",
      problems: [{ path: "$.payments[0].reference", message: "not available" }],
    });
    expect(JSON.stringify(outcomes[0])).not.toContain(us.number);

    // Nothing of tienda-es points at shop-us's payment intent, so no agent of tienda-es can refund it.
    expect(await db().payment.count({ where: { providerPaymentRef: us.pi } })).toBe(1);

    // A write that skips the check (a parallel push) still cannot: one payment intent per account.
    const es = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
    const esOrder = await db().order.findFirstOrThrow({ where: { tenantId: es.id, number: okNumber } });
    await expect(
      db().payment.create({
        data: {
          tenantId: es.id,
          orderId: esOrder.id,
          method: "card",
          providerPaymentRef: us.pi,
          holderName: "x",
          display: "x",
          amountMinor: 1,
          currency: "EUR",
          provider: "stripe",
        },
      }),
    ).rejects.toMatchObject({ code: "P2002" });
  });
});

describe("the provider's currency and capture (finding 2)", () => {
  it("prepare refuses a payment the provider holds in another currency, or with another capture; no proposal", async () => {
    const gbp = await paidOrder(ES, { amount: 10_000, currency: "GBP" });
    expect(gbp.pushed.status).toBe(201);
    const r = await prepare(ES, gbp.number, gbp.customer);
    expect(r.body.is_error).toBe(true);
    expect(r.content).toMatchObject({
      code: "permission_denied",
      error: { order_id: gbp.number, reason: "payment_mismatch" },
    });
    expect(await db().proposal.count({ where: { order: { number: gbp.number } } })).toBe(0);
    const looked = await send(
      anthropicCall("lookup_order", { order_id: gbp.number }),
      headersFor({ token: gbp.token }),
    );
    expect(looked.content).toMatchObject({ code: "ok", result: { refundable: { minor: 0 } } });

    const more = await paidOrder(ES, { amount: 9_000, pushedMinor: 10_000 });
    expect((await prepare(ES, more.number, more.customer)).content).toMatchObject({
      code: "permission_denied",
      error: { reason: "payment_mismatch" },
    });
    expect(await db().proposal.count({ where: { order: { number: more.number } } })).toBe(0);
  });

  it("execution refuses (invalidated, payment_mismatch) an approved refund the provider holds in another currency; nothing is paid", async () => {
    // Approved while live reads were off (the ledger alone): the live read before paying is what stands in the way.
    process.env.PAYMENT_PROVIDER_LIVE_READS = "0";
    let id: string;
    let pi: string;
    try {
      const o = await paidOrder(ES, { amount: 10_000, currency: "GBP" });
      pi = o.pi;
      const r = await prepare(ES, o.number, o.customer);
      expect(r.content).toMatchObject({
        code: "approval_required",
        result: { amount: { minor: 10_000, currency: "EUR" } },
      });
      id = String(r.content.result!.proposal_id);
      await approveProposal(await reviewerOf(ES), { proposalId: id, hash: (await proposalOf(id)).hash });
    } finally {
      process.env.PAYMENT_PROVIDER_LIVE_READS = "1";
    }
    expect(await executeRefund(id)).toBe("revalidation_failed");
    expect(await proposalOf(id)).toMatchObject({ status: "invalidated", invalidationReason: "payment_mismatch" });
    expect(await db().execution.count({ where: { proposalId: id } })).toBe(0);
    expect(await control.paymentIntent(pi)).toMatchObject({ currency: "gbp", amount_refunded: 0 });
  });
});

describe("webhook placement by (account, reference) (finding 3)", () => {
  it("other tenants' rows with shop-us's reference never make the shared endpoint drop shop-us's dispute or refund", async () => {
    const us = await paidOrder(US, { amount: 20_000 });
    const r = await prepare(US, us.number, us.customer);
    expect(r.content, JSON.stringify(r.content)).toMatchObject({ code: "approval_required" });
    const id = String(r.content.result!.proposal_id);
    const us2 = await paidOrder(US, { amount: 30_000 });

    // tienda-es holds both references in ways the index allows: the first as a payment intent of the account it had
    // its own connection to (then removed: it is on the shared account again), the second as its shop's own
    // (manual) number.
    const admin = await actorFor(staffOf(ES, "admin").email);
    await setProviderConnection(admin, { apiKey: `rk_test_${hex()}`, webhookSecret: `whsec_${hex()}` });
    const viaOwn = await put(ES, `OWN-${hex().slice(0, 10).toUpperCase()}`, `cus_own_${hex().slice(0, 14)}`, {
      pi: us.pi,
      capturedMinor: 20_000,
    });
    expect(viaOwn.status, JSON.stringify(viaOwn.body)).toBe(201);
    await removeProviderConnection(admin, {});
    const asManual = await put(ES, `OWN-${hex().slice(0, 10).toUpperCase()}`, `cus_own_${hex().slice(0, 14)}`, {
      provider: "manual",
      pi: us2.pi,
      capturedMinor: 30_000,
    });
    expect(asManual.status, JSON.stringify(asManual.body)).toBe(201);
    expect(await db().payment.count({ where: { providerPaymentRef: { in: [us.pi, us2.pi] } } })).toBe(4);

    await control.openDispute({ paymentIntent: us.pi, reason: "fraudulent" });
    const disputed = await eventually(
      () => proposalOf(id),
      (p) => p.status !== "pending_approval",
    );
    expect(disputed).toMatchObject({ status: "invalidated", invalidationReason: "payment_disputed" });

    const usTenant = await db().tenant.findUniqueOrThrow({ where: { slug: US } });
    for (const pi of [us.pi, us2.pi]) {
      const made = await control.refundElsewhere({ paymentIntent: pi, amount: 2_500 });
      const ledger = await eventually(
        () => db().refund.findMany({ where: { providerRefundId: made.id } }),
        (rows) => rows.length > 0,
      );
      expect(ledger).toEqual([
        expect.objectContaining({ tenantId: usTenant.id, origin: "external", amountMinor: 2_500 }),
      ]);
    }
    const ours = deliveries.filter((d) => d.pi === us.pi || d.pi === us2.pi);
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.every((d) => d.status === 200)).toBe(true);
  });

  it("an event about a payment intent no tenant holds is acknowledged, logged and counted, never silently dropped", async () => {
    const before = await webhookCount("unplaced");
    const pi = `pi_own_${hex().slice(0, 20)}`;
    await control.createPaymentIntent({ id: pi, amount: 5_000, currency: "eur" });
    await control.openDispute({ paymentIntent: pi });
    await eventually(
      async () => deliveries.filter((d) => d.pi === pi),
      (d) => d.length > 0,
    );
    expect(deliveries.filter((d) => d.pi === pi)).toEqual([expect.objectContaining({ status: 200 })]);
    expect(await webhookCount("unplaced")).toBe(before + 1);
  });
});

describe("a provider switch under an open proposal (finding 8)", () => {
  it("stripe → manual invalidates the pending proposal (payment_changed) and the approved one before it is paid", async () => {
    const pending = await paidOrder(ES, { amount: 7_000 });
    const r = await prepare(ES, pending.number, pending.customer);
    const pendingId = String(r.content.result!.proposal_id);
    const switched = await put(ES, pending.number, pending.customer, {
      provider: "manual",
      pi: pending.pi,
      capturedMinor: 7_000,
    });
    expect(switched).toMatchObject({ status: 200, body: { changed: true } });
    expect(await proposalOf(pendingId)).toMatchObject({
      status: "invalidated",
      invalidationReason: "payment_changed",
    });

    const approved = await paidOrder(ES, { amount: 8_000 });
    const a = await prepare(ES, approved.number, approved.customer);
    const id = String(a.content.result!.proposal_id);
    await approveProposal(await reviewerOf(ES), { proposalId: id, hash: (await proposalOf(id)).hash });
    expect(
      (await put(ES, approved.number, approved.customer, { provider: "manual", pi: approved.pi, capturedMinor: 8_000 }))
        .status,
    ).toBe(200);
    expect(await executeRefund(id)).toBe("revalidation_failed");
    expect(await proposalOf(id)).toMatchObject({ status: "invalidated", invalidationReason: "payment_changed" });
    expect(await control.paymentIntent(approved.pi)).toMatchObject({ amount_refunded: 0 });
  });
});
