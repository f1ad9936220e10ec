// The sandbox provider's accounts (provider-sandbox/accounts.ts, docs/provider-sandbox.md "Accounts"), through the
// real sandbox process and the app's real per-tenant webhook route behind a real HTTP server: tienda-es and shop-us
// each have their own sandbox account (own key, own webhook endpoint and secret) and their own provider connection in
// the app. One account's key cannot see or refund the other's payment intents; a refund made "by someone else" in the
// sandbox's dashboard on tienda-es's charge reaches tienda-es's endpoint only, signed with its secret, and enters its
// ledger with origin external; a dispute opened in the sandbox reaches the app and invalidates the pending proposal.
import { randomBytes, randomUUID } from "node:crypto";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as tenantWebhookPOST } from "@/app/api/payments/webhook/[tenantSlug]/route";
import { setProviderConnection } from "@/lib/server/admin/provider-connection/set-provider-connection";
import { db } from "@/lib/server/db/client";
import { databasePoolSize } from "@/lib/server/env";
import { issueIntegrationKey } from "@/lib/server/integrations/issue-integration-key";
import { actorFor, staffOf } from "../support/actors";
import { startGatewayServer, type RouteHandler } from "../support/gateway-http-server";
import { startSandboxProvider, type SandboxProvider } from "../support/sandbox-provider";
import { anthropicCall, ES, headersFor, send, US } from "./gateway-support";
import { pushStripeOrder } from "./pushed-stripe-order";

const hex = () => randomUUID().replace(/-/g, "");
const A = {
  account: `acct_es_${hex().slice(0, 10)}`,
  key: `rk_test_${hex()}`,
  secret: `whsec_${randomBytes(24).toString("base64url")}`,
};
const B = {
  account: `acct_us_${hex().slice(0, 10)}`,
  key: `rk_test_${hex()}`,
  secret: `whsec_${randomBytes(24).toString("base64url")}`,
};

let sandbox: SandboxProvider;
let server: Awaited<ReturnType<typeof startGatewayServer>>;
let integrationKey: string;
/** What reached each tenant's endpoint: the slug, the event's type and payment intent, the status answered. */
const deliveries: { slug: string; type: string; pi: string; status: number }[] = [];

const stripeFor = (key: string) => {
  const url = new URL(process.env.PAYMENT_PROVIDER_URL!);
  return new Stripe(key, { host: url.hostname, port: Number(url.port), protocol: "http", maxNetworkRetries: 0 });
};

beforeAll(async () => {
  process.env.SECRETS_KEY = randomBytes(32).toString("base64");
  const counted: RouteHandler = async (req, context) => {
    const slug = String((await context.params).tenantSlug);
    const event = (await req.clone().json()) as { type: string; data: { object: { payment_intent: string } } };
    const res = await (tenantWebhookPOST as unknown as RouteHandler)(req, context);
    deliveries.push({ slug, type: event.type, pi: event.data.object.payment_intent, status: res.status });
    return res;
  };
  server = await startGatewayServer({
    "/api/payments/webhook/*": {
      methods: { POST: counted },
      params: (pathname) => ({ tenantSlug: decodeURIComponent(pathname.split("/").pop()!) }),
    },
  });
  sandbox = await startSandboxProvider();
  for (const [slug, t] of [
    [ES, A],
    [US, B],
  ] as const) {
    await sandbox.control.registerAccount({
      id: t.account,
      apiKeys: [t.key],
      webhookUrl: `${server.url}/api/payments/webhook/${slug}`,
      webhookSecret: t.secret,
    });
    await setProviderConnection(await actorFor(staffOf(slug, "admin").email), {
      apiKey: t.key,
      webhookSecret: t.secret,
    });
  }
  process.env.PAYMENT_PROVIDER_LIVE_READS = "1";
  integrationKey = (
    await issueIntegrationKey(await actorFor(staffOf(ES, "admin").email), { label: "shop", scopes: ["orders:write"] })
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

const stripeErrorOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: { statusCode?: number; code?: string; type?: string }) => ({
      statusCode: e.statusCode,
      code: e.code,
      type: e.type,
    }),
  );
const MISSING = { statusCode: 404, code: "resource_missing", type: "StripeInvalidRequestError" };

describe("sandbox accounts: one key per tenant, webhooks for all", () => {
  it("an account's key cannot retrieve, list or refund another account's payment intent (resource_missing, as an unknown id)", async () => {
    const pi = `pi_acc_${hex().slice(0, 16)}`;
    await sandbox.control.createPaymentIntent({ id: pi, amount: 5_000, currency: "eur", account: A.account });
    const a = stripeFor(A.key);
    const b = stripeFor(B.key);
    expect((await a.paymentIntents.retrieve(pi)).amount).toBe(5_000);
    const made = await a.refunds.create({ payment_intent: pi, amount: 1_000 }, { idempotencyKey: `k-${pi}` });

    expect(await stripeErrorOf(b.paymentIntents.retrieve(pi))).toEqual(MISSING);
    expect(await stripeErrorOf(b.refunds.list({ payment_intent: pi }))).toEqual(MISSING);
    expect(await stripeErrorOf(b.refunds.retrieve(made.id))).toEqual(MISSING);
    expect(await stripeErrorOf(b.refunds.create({ payment_intent: pi, amount: 1_000 }))).toEqual(MISSING);
    // The same idempotency key in the other account is another request, not a replay of A's refund.
    expect(
      await stripeErrorOf(b.refunds.create({ payment_intent: pi, amount: 1_000 }, { idempotencyKey: `k-${pi}` })),
    ).toEqual(MISSING);
    // B's unfiltered list does not show A's refund; the process's own (default) account does not see it either.
    expect((await b.refunds.list({ limit: 100 })).data.map((r) => r.id)).not.toContain(made.id);
    expect(await stripeErrorOf(stripeFor(process.env.PAYMENT_PROVIDER_API_KEY!).paymentIntents.retrieve(pi))).toEqual(
      MISSING,
    );
    // Nothing of B's attempts reached A's payment intent.
    expect((await sandbox.control.paymentIntent(pi)).amount_refunded).toBe(1_000);
    // A key opens exactly one account.
    await expect(sandbox.control.registerAccount({ apiKeys: [A.key] })).rejects.toThrow(/409/);
    await expect(sandbox.control.registerAccount({ apiKeys: [process.env.PAYMENT_PROVIDER_API_KEY!] })).rejects.toThrow(
      /409/,
    );
  });

  it("a refund made in the sandbox by someone else on tienda-es's charge reaches tienda-es's endpoint only and enters its ledger as external", async () => {
    const o = await pushStripeOrder({
      control: sandbox.control,
      integrationKey,
      capturedMinor: 9_000,
      prefix: "acc",
      account: A.account,
    });
    const r = await send(
      anthropicCall("prepare_refund", { order_id: o.number, reason: "damaged_item" }),
      headersFor({ token: o.token }),
    );
    expect(r.content).toMatchObject({ code: "approval_required", result: { amount: { minor: 9_000 } } });
    const proposalId = String(r.content.result!.proposal_id);

    const refund = await sandbox.control.refundElsewhere({
      paymentIntent: o.pi,
      amount: 2_500,
      metadata: { made_by: "the shop's dashboard" },
    });
    const rows = await eventually(
      () => db().refund.findMany({ where: { providerRefundId: refund.id } }),
      (rs) => rs.length > 0,
    );
    expect(rows).toMatchObject([{ amountMinor: 2_500, origin: "external", status: "succeeded" }]);
    expect((await db().tenant.findUniqueOrThrow({ where: { id: rows[0]!.tenantId } })).slug).toBe(ES);
    expect(await db().proposal.findUniqueOrThrow({ where: { id: proposalId } })).toMatchObject({
      status: "invalidated",
    });

    // Both of the refund's events were delivered to tienda-es's endpoint, signed with its secret (else 400), none to shop-us's.
    const arrived = await eventually(
      async () => deliveries.filter((d) => d.pi === o.pi),
      (d) => d.length >= 2,
    );
    expect(arrived.map((d) => `${d.slug} ${d.type} ${d.status}`).sort()).toEqual([
      `${ES} charge.refunded 200`,
      `${ES} refund.created 200`,
    ]);
    const events = await sandbox.control.events();
    expect(events.data.filter((e) => e.account === A.account).every((e) => e.last_status === 200)).toBe(true);
    // shop-us's account had no refund, so it has no events; none of tienda-es's went to shop-us's endpoint.
    expect(events.data.filter((e) => e.account === B.account)).toEqual([]);
    expect(deliveries.filter((d) => d.slug === US)).toEqual([]);
    // The two events about one refund, delivered at once, record and audit it once.
    expect(
      await db().auditEvent.count({
        where: { action: "payments:external_refund", data: { path: ["refundRef"], equals: refund.id } },
      }),
    ).toBe(1);

    // The agent's next prepare offers what is left.
    const again = await send(
      anthropicCall("prepare_refund", { order_id: o.number, reason: "damaged_item" }),
      headersFor({ token: o.token }),
    );
    expect(again.content).toMatchObject({ code: "approval_required", result: { amount: { minor: 6_500 } } });
  });

  it("a dispute opened in the sandbox reaches the tenant's endpoint and invalidates the order's pending proposal", async () => {
    const o = await pushStripeOrder({
      control: sandbox.control,
      integrationKey,
      capturedMinor: 4_000,
      prefix: "dsp",
      account: A.account,
    });
    const r = await send(
      anthropicCall("prepare_refund", { order_id: o.number, reason: "damaged_item" }),
      headersFor({ token: o.token }),
    );
    const proposalId = String(r.content.result!.proposal_id);
    const dispute = await sandbox.control.openDispute({ paymentIntent: o.pi, reason: "fraudulent" });
    expect(dispute).toMatchObject({ amount: 4_000, payment_intent: o.pi, status: "needs_response" });
    const p = await eventually(
      () => db().proposal.findUniqueOrThrow({ where: { id: proposalId } }),
      (x) => x.status === "invalidated",
    );
    expect(p).toMatchObject({ status: "invalidated", invalidationReason: "payment_disputed" });
    const audit = await db().auditEvent.findFirstOrThrow({
      where: { action: "payments:dispute", data: { path: ["disputeRef"], equals: dispute.id } },
    });
    expect(audit.data).toMatchObject({ order: o.number, amountMinor: 4_000, invalidatedProposals: [proposalId] });
    expect(deliveries.filter((d) => d.type === "charge.dispute.created").map((d) => d.slug)).toEqual([ES]);
  });

  it("four times as many concurrent live prepares as the pool has connections all answer (the tenant's connection is read in the prepare's own transaction)", async () => {
    const n = databasePoolSize() * 4;
    const orders = [];
    for (let i = 0; i < n; i++)
      orders.push(
        await pushStripeOrder({
          control: sandbox.control,
          integrationKey,
          capturedMinor: 1_000 + i,
          prefix: "pool",
          account: A.account,
        }),
      );
    const all = Promise.all(
      orders.map((o) =>
        send(
          anthropicCall("prepare_refund", { order_id: o.number, reason: "damaged_item" }),
          headersFor({ token: o.token }),
        ),
      ),
    );
    const answers = await Promise.race([all, new Promise<"hung">((r) => setTimeout(() => r("hung"), 20_000))]);
    expect(answers).not.toBe("hung");
    expect((answers as Awaited<typeof all>).map((a) => a.content.code)).toEqual(orders.map(() => "approval_required"));
  }, 60_000);

  it("a dispute or a dashboard refund on a payment intent that does not exist is refused and records nothing", async () => {
    const { events } = await sandbox.control.counters();
    await expect(sandbox.control.openDispute({ paymentIntent: "pi_nope" })).rejects.toThrow(/404/);
    await expect(sandbox.control.refundElsewhere({ paymentIntent: "pi_nope", amount: 1 })).rejects.toThrow(/404/);
    await expect(
      sandbox.control.createPaymentIntent({ amount: 100, currency: "eur", account: "acct_unknown" }),
    ).rejects.toThrow(/404/);
    expect((await sandbox.control.counters()).events.total).toBe(events.total);
  });
});
