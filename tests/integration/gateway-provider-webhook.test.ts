// The provider webhook: signed timestamps outside the tolerance are refused in both
// directions, and an event id is applied once even when delivered again (or twice at the same time).
import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as webhookPOST } from "@/app/api/payments/webhook/route";
import { db } from "@/lib/server/db/client";
import { resetPaymentProvider } from "@/lib/server/payments/get-payment-provider";
import { purgeWebhookEvents, WEBHOOK_TOLERANCE_SECONDS } from "@/lib/server/executions/settle-from-webhook";
import { ana, ES } from "./gateway-support";
import { createPaidOrder, createProposalRow } from "../../scripts/lib/fixtures";

const SECRET = `whsec_${randomUUID().replace(/-/g, "")}`;
const stripe = new Stripe("sk_test_unused");

beforeAll(() => {
  process.env.PAYMENT_PROVIDER_WEBHOOK_SECRET = SECRET;
  process.env.PAYMENT_PROVIDER_API_KEY ??= "sk_test_unused";
  resetPaymentProvider();
});

/** An execution awaiting its provider's late answer (status pending), as the executor leaves it. */
async function pendingExecution() {
  const t = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
  const n = randomUUID().slice(0, 8);
  const o = await createPaidOrder(db(), t, {
    customerId: ana,
    amountMinor: 1_000,
    prefix: `WH-${n}`,
    holderName: "Ana García",
  });
  const proposal = await createProposalRow(db(), t, o, {
    customerId: ana,
    status: "executing",
    expiresAt: new Date(Date.now() + 3600_000),
    holderName: "Ana García",
    traceId: `wh-${n}-trace`,
  });
  const refundId = `re_wh_${n}`;
  const execution = await db().execution.create({
    data: {
      tenantId: t.id,
      proposalId: proposal.id,
      idempotencyKey: `refund-${proposal.id}`,
      status: "pending",
      attempts: 1,
      providerRefundId: refundId,
    },
  });
  return { proposal, execution, refundId, tenantId: t.id };
}

function refundEvent(
  refundId: string,
  proposalId: string,
  tenantId: string,
  status = "succeeded",
  id = `evt_${randomUUID().replace(/-/g, "")}`,
) {
  return JSON.stringify({
    id,
    object: "event",
    type: `refund.${status === "succeeded" ? "updated" : "failed"}`,
    created: Math.floor(Date.now() / 1000),
    api_version: "2025-01-27",
    livemode: false,
    pending_webhooks: 1,
    request: null,
    data: {
      object: {
        id: refundId,
        object: "refund",
        amount: 1_000,
        currency: "eur",
        status,
        payment_intent: "pi_x",
        metadata: { proposalId, tenantId },
        created: Math.floor(Date.now() / 1000),
      },
    },
  });
}

async function deliver(payload: string, timestamp = Math.floor(Date.now() / 1000)) {
  const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp });
  const res = await webhookPOST(
    new Request("http://localhost/api/payments/webhook", {
      method: "POST",
      headers: { "stripe-signature": signature, "content-type": "application/json" },
      body: payload,
    }),
  );
  return { status: res.status, body: (await res.json()) as { received: boolean; duplicate?: boolean; error?: string } };
}

describe("provider webhook: clock skew", () => {
  it("refuses a signed timestamp too far in the past and too far in the future; changes nothing", async () => {
    const ex = await pendingExecution();
    const payload = refundEvent(ex.refundId, ex.proposal.id, ex.tenantId);
    const now = Math.floor(Date.now() / 1000);
    const past = await deliver(payload, now - WEBHOOK_TOLERANCE_SECONDS - 30);
    expect(past.status).toBe(400);
    const future = await deliver(payload, now + WEBHOOK_TOLERANCE_SECONDS + 30);
    expect(future).toMatchObject({ status: 400, body: { received: false, error: "timestamp outside tolerance" } });
    expect((await db().execution.findUniqueOrThrow({ where: { id: ex.execution.id } })).status).toBe("pending");
    // Within the tolerance (a little skew either way) it is applied.
    const ok = await deliver(payload, now + 60);
    expect(ok).toMatchObject({ status: 200, body: { received: true } });
    expect((await db().execution.findUniqueOrThrow({ where: { id: ex.execution.id } })).status).toBe("succeeded");
  });
});

describe("provider webhook: event ids", () => {
  it("a replayed event id is acknowledged as a duplicate and not applied again", async () => {
    const ex = await pendingExecution();
    const id = `evt_${randomUUID().replace(/-/g, "")}`;
    const first = await deliver(refundEvent(ex.refundId, ex.proposal.id, ex.tenantId, "succeeded", id));
    expect(first.body).toEqual({ received: true });
    const settledEvents = await db().auditEvent.count({ where: { proposalId: ex.proposal.id } });
    // The same event id again — even with different content — changes nothing.
    const again = await deliver(refundEvent(ex.refundId, ex.proposal.id, ex.tenantId, "failed", id));
    expect(again).toMatchObject({ status: 200, body: { received: true, duplicate: true } });
    expect((await db().execution.findUniqueOrThrow({ where: { id: ex.execution.id } })).status).toBe("succeeded");
    expect(await db().auditEvent.count({ where: { proposalId: ex.proposal.id } })).toBe(settledEvents);
  });

  it("two concurrent deliveries of one event apply it once", async () => {
    const ex = await pendingExecution();
    const payload = refundEvent(ex.refundId, ex.proposal.id, ex.tenantId);
    const answers = await Promise.all([deliver(payload), deliver(payload), deliver(payload)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => a.body.duplicate === true)).toHaveLength(2);
    expect(await db().providerWebhookEvent.count({ where: { eventId: JSON.parse(payload).id } })).toBe(1);
  });

  it("remembered ids older than the tolerance are purged", async () => {
    await db().providerWebhookEvent.create({
      data: { eventId: "evt_old_purge_me", type: "refund.updated", receivedAt: new Date(Date.now() - 3600_000) },
    });
    await db().providerWebhookEvent.create({ data: { eventId: "evt_new_keep_me", type: "refund.updated" } });
    expect(await purgeWebhookEvents()).toBeGreaterThanOrEqual(1);
    const left = (
      await db().providerWebhookEvent.findMany({ where: { eventId: { in: ["evt_old_purge_me", "evt_new_keep_me"] } } })
    ).map((e) => e.eventId);
    expect(left).toEqual(["evt_new_keep_me"]);
  });
});
