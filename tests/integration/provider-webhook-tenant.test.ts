// Refunds made elsewhere (docs/systems-of-record.md "Refunds made elsewhere"), through the real sandbox provider
// process: tienda-es has its own provider connection; the sandbox delivers its signed events to tienda-es's own
// endpoint (/api/payments/webhook/tienda-es, a real HTTP server in front of the route). A refund made at the provider
// outside this product enters the ledger with origin external (once, whatever the redeliveries), what is left drops,
// and the open proposal that no longer fits is invalidated in the same transaction. Forged, replayed and
// foreign-tenant deliveries are refused and change nothing; the process-wide endpoint no longer speaks for a tenant
// with its own connection; charge.refunded reads the refunds from the provider; a dispute invalidates.
import { randomBytes, randomUUID } from "node:crypto";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as globalWebhookPOST } from "@/app/api/payments/webhook/route";
import { POST as tenantWebhookPOST } from "@/app/api/payments/webhook/[tenantSlug]/route";
import { db } from "@/lib/server/db/client";
import { setProviderConnection } from "@/lib/server/admin/provider-connection/set-provider-connection";
import { issueIntegrationKey } from "@/lib/server/integrations/issue-integration-key";
import { getPaymentProvider } from "@/lib/server/payments/get-payment-provider";
import { actorFor, staffOf } from "../support/actors";
import { startGatewayServer, type RouteHandler } from "../support/gateway-http-server";
import { startSandboxProvider, type SandboxProvider } from "../support/sandbox-provider";
import { anthropicCall, ES, headersFor, send } from "./gateway-support";
import { pushStripeOrder } from "./pushed-stripe-order";

const US = "shop-us";
const TENANT_KEY = `rk_test_${randomUUID().replace(/-/g, "")}`;
const TENANT_SECRET = `whsec_${randomBytes(24).toString("base64url")}`;
const US_SECRET = `whsec_${randomBytes(24).toString("base64url")}`;
const DEFAULT_SECRET = `whsec_${randomBytes(24).toString("base64url")}`;
const stripe = new Stripe("sk_test_unused");

let sandbox: SandboxProvider;
let server: Awaited<ReturnType<typeof startGatewayServer>>;
let integrationKey: string;

beforeAll(async () => {
  process.env.SECRETS_KEY = randomBytes(32).toString("base64");
  process.env.PAYMENT_PROVIDER_WEBHOOK_SECRET = DEFAULT_SECRET;
  server = await startGatewayServer({
    "/api/payments/webhook/*": {
      methods: { POST: tenantWebhookPOST as unknown as RouteHandler },
      params: (pathname) => ({ tenantSlug: decodeURIComponent(pathname.split("/").pop()!) }),
    },
  });
  // The sandbox signs its events with tienda-es's secret and delivers them to tienda-es's own endpoint.
  sandbox = await startSandboxProvider({
    extraArgs: [
      "--api-key",
      TENANT_KEY,
      "--webhook-url",
      `${server.url}/api/payments/webhook/${ES}`,
      "--webhook-secret",
      TENANT_SECRET,
    ],
  });
  process.env.PAYMENT_PROVIDER_LIVE_READS = "1";
  const admin = await actorFor(staffOf(ES, "admin").email);
  await setProviderConnection(admin, { apiKey: TENANT_KEY, webhookSecret: TENANT_SECRET });
  integrationKey = (await issueIntegrationKey(admin, { label: "shop", scopes: ["orders:write"] })).key;
});
afterAll(async () => {
  process.env.PAYMENT_PROVIDER_LIVE_READS = "0";
  delete process.env.SECRETS_KEY;
  await sandbox?.stop();
  await server?.close();
});

/** A card payment captured at the provider, its order pushed through the Orders API, and a pending proposal for all of it. */
async function orderWithOpenProposal(capturedMinor: number) {
  const { pi, number, token } = await pushStripeOrder({
    control: sandbox.control,
    integrationKey,
    capturedMinor,
    prefix: "wt",
  });
  const r = await send(
    anthropicCall("prepare_refund", { order_id: number, reason: "damaged_item" }),
    headersFor({ token }),
  );
  expect(r.content).toMatchObject({ code: "approval_required", result: { amount: { minor: capturedMinor } } });
  return { pi, number, token, proposalId: String(r.content.result!.proposal_id) };
}

/** A refund made outside this product: at the provider, by anyone holding a key of the account. */
async function refundElsewhere(pi: string, amountMinor: number) {
  const made = await getPaymentProvider().createRefund({
    paymentIntent: pi,
    amountMinor,
    currency: "EUR",
    idempotencyKey: `elsewhere-${randomUUID()}`,
    metadata: { proposalId: "none", tenantId: "shop-dashboard" },
  });
  if (made.outcome !== "succeeded") throw new Error(`refund at the provider: ${made.outcome}`);
  return made.refundId;
}

async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const refundEvent = (
  refundId: string,
  pi: string,
  amount: number,
  id = `evt_${randomUUID().replace(/-/g, "")}`,
  type = "refund.created",
) =>
  JSON.stringify({
    id,
    object: "event",
    type,
    created: Math.floor(Date.now() / 1000),
    api_version: "2025-01-27",
    livemode: false,
    pending_webhooks: 1,
    request: null,
    data: {
      object: {
        id: refundId,
        object: "refund",
        amount,
        currency: "eur",
        status: "succeeded",
        payment_intent: pi,
        metadata: {},
        created: Math.floor(Date.now() / 1000),
      },
    },
  });

const objectEvent = (type: string, object: Record<string, unknown>) =>
  JSON.stringify({
    id: `evt_${randomUUID().replace(/-/g, "")}`,
    object: "event",
    type,
    created: Math.floor(Date.now() / 1000),
    api_version: "2025-01-27",
    livemode: false,
    pending_webhooks: 1,
    request: null,
    data: { object },
  });

async function deliver(
  slug: string | null,
  payload: string,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
) {
  const signature = stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
  const request = new Request(`http://localhost/api/payments/webhook${slug ? `/${slug}` : ""}`, {
    method: "POST",
    headers: { "stripe-signature": signature, "content-type": "application/json" },
    body: payload,
  });
  const res = slug
    ? await tenantWebhookPOST(request, { params: Promise.resolve({ tenantSlug: slug }) })
    : await globalWebhookPOST(request);
  return { status: res.status, body: (await res.json()) as { received: boolean; duplicate?: boolean; error?: string } };
}

const externalRefunds = (pi: string) =>
  db().refund.findMany({ where: { origin: "external", payment: { providerPaymentRef: pi } } });

describe("refunds made elsewhere, through the tenant's own webhook", () => {
  it("an external refund at the provider enters the ledger once, lowers what is left, and invalidates the open proposal that no longer fits", async () => {
    const o = await orderWithOpenProposal(10_000);
    const refundId = await refundElsewhere(o.pi, 3_000);
    // The sandbox delivers refund.created, signed with tienda-es's secret, to tienda-es's endpoint.
    const rows = await eventually(
      () => externalRefunds(o.pi),
      (r) => r.length > 0,
    );
    expect(rows).toMatchObject([
      { providerRefundId: refundId, amountMinor: 3_000, status: "succeeded", origin: "external" },
    ]);
    const p = await db().proposal.findUniqueOrThrow({ where: { id: o.proposalId } });
    expect(p).toMatchObject({ status: "invalidated", invalidationReason: "amount_no_longer_refundable" });
    expect((await db().order.findFirstOrThrow({ where: { number: o.number } })).status).toBe("partially_refunded");
    const audit = await db().auditEvent.findFirstOrThrow({
      where: { action: "payments:external_refund", data: { path: ["refundRef"], equals: refundId } },
    });
    expect(audit.data).toMatchObject({ order: o.number, amountMinor: 3_000, invalidatedProposals: [o.proposalId] });
    expect(await db().auditEvent.count({ where: { proposalId: o.proposalId, action: "proposal:invalidate" } })).toBe(1);

    // Another event about the same refund (a redelivery with a new id, or refund.updated): still one row, nothing new.
    const again = await deliver(ES, refundEvent(refundId, o.pi, 3_000, undefined, "refund.updated"), TENANT_SECRET);
    expect(again).toEqual({ status: 200, body: { received: true } });
    expect(await externalRefunds(o.pi)).toHaveLength(1);
    expect(
      await db().auditEvent.count({
        where: { action: "payments:external_refund", data: { path: ["refundRef"], equals: refundId } },
      }),
    ).toBe(1);

    // The agent's next prepare offers what is left (the ledger and the provider agree).
    const r = await send(
      anthropicCall("prepare_refund", { order_id: o.number, reason: "damaged_item" }),
      headersFor({ token: o.token }),
    );
    expect(r.content).toMatchObject({ code: "approval_required", result: { amount: { minor: 7_000 } } });
  });

  it("forged, replayed, foreign-tenant and unknown-endpoint deliveries are refused and change nothing", async () => {
    const o = await orderWithOpenProposal(5_000);
    const refundId = `re_forged_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
    const payload = refundEvent(refundId, o.pi, 5_000);
    // Signed with a secret that is not tienda-es's.
    expect(await deliver(ES, payload, `whsec_${randomBytes(24).toString("base64url")}`)).toMatchObject({
      status: 400,
      body: { error: "invalid signature" },
    });
    // Signed with the process-wide secret (another account): not tienda-es's either.
    expect(await deliver(ES, payload, DEFAULT_SECRET)).toMatchObject({ status: 400 });
    // Replayed: a genuine signature whose timestamp is older than the tolerance.
    expect(await deliver(ES, payload, TENANT_SECRET, Math.floor(Date.now() / 1000) - 3600)).toMatchObject({
      status: 400,
      body: { received: false },
    });
    // … or one from the future (a pre-dated capture).
    expect(await deliver(ES, payload, TENANT_SECRET, Math.floor(Date.now() / 1000) + 3600)).toMatchObject({
      status: 400,
      body: { error: "timestamp outside tolerance" },
    });
    // Another tenant's slug: shop-us has no own connection (same 404 as a slug that does not exist) …
    expect(await deliver(US, payload, TENANT_SECRET)).toMatchObject({ status: 404 });
    expect(await deliver("no-such-shop", payload, TENANT_SECRET)).toMatchObject({ status: 404 });
    // … and once it has one, tienda-es's signature does not verify there.
    await setProviderConnection(await actorFor(staffOf(US, "admin").email), {
      apiKey: `rk_test_${randomUUID().replace(/-/g, "")}`,
      webhookSecret: US_SECRET,
    });
    expect(await deliver(US, payload, TENANT_SECRET)).toMatchObject({ status: 400 });
    // shop-us's own, valid signature: verified, but the payment is not shop-us's, so nothing is recorded.
    expect(await deliver(US, payload, US_SECRET)).toEqual({ status: 200, body: { received: true } });
    // The process-wide endpoint no longer speaks for tienda-es (it has its own connection).
    expect(await deliver(null, payload, DEFAULT_SECRET)).toEqual({ status: 200, body: { received: true } });

    expect(await externalRefunds(o.pi)).toHaveLength(0);
    expect((await db().proposal.findUniqueOrThrow({ where: { id: o.proposalId } })).status).toBe("pending_approval");

    // The same event, properly signed for tienda-es, is applied; its exact redelivery is a duplicate.
    expect(await deliver(ES, payload, TENANT_SECRET)).toEqual({ status: 200, body: { received: true } });
    expect(await deliver(ES, payload, TENANT_SECRET)).toEqual({
      status: 200,
      body: { received: true, duplicate: true },
    });
    expect(await externalRefunds(o.pi)).toHaveLength(1);
    expect((await db().proposal.findUniqueOrThrow({ where: { id: o.proposalId } })).status).toBe("invalidated");
  });

  it("charge.refunded (which lists no refunds) records the payment's refunds as the provider reads them", async () => {
    const o = await orderWithOpenProposal(8_000);
    const refundId = await refundElsewhere(o.pi, 1_000);
    await eventually(
      () => externalRefunds(o.pi),
      (r) => r.length > 0,
    );
    // Forget the row the refund's own event made, so only charge.refunded can bring it back.
    await db().refund.deleteMany({ where: { providerRefundId: refundId } });
    // charge.refunded without a refund list: the refunds come from the provider, read with tienda-es's key.
    const res = await deliver(
      ES,
      objectEvent("charge.refunded", { id: "ch_x", object: "charge", payment_intent: o.pi, amount_refunded: 1_000 }),
      TENANT_SECRET,
    );
    expect(res).toEqual({ status: 200, body: { received: true } });
    expect(await externalRefunds(o.pi)).toMatchObject([{ providerRefundId: refundId, amountMinor: 1_000 }]);
  });

  it("a dispute opened on a known payment invalidates the order's pending proposal", async () => {
    const o = await orderWithOpenProposal(4_000);
    const res = await deliver(
      ES,
      objectEvent("charge.dispute.created", {
        id: "dp_1",
        object: "dispute",
        amount: 4_000,
        currency: "eur",
        payment_intent: o.pi,
        reason: "fraudulent",
      }),
      TENANT_SECRET,
    );
    expect(res).toEqual({ status: 200, body: { received: true } });
    expect(await db().proposal.findUniqueOrThrow({ where: { id: o.proposalId } })).toMatchObject({
      status: "invalidated",
      invalidationReason: "payment_disputed",
    });
    expect(await db().auditEvent.count({ where: { action: "payments:dispute" } })).toBe(1);
  });
});
