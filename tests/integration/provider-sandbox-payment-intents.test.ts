// The sandbox takes payments where the contract says (DESIGN "Sandbox provider"): `POST /v1/payment_intents` with
// confirm=true and payment_method=pm_card_visa → succeeded, through the official `stripe` package as a shop
// would call it, then readable and refundable through the same API. Not only on its control endpoint.
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandboxProvider, type SandboxProvider } from "../support/sandbox-provider";

let sandbox: SandboxProvider;
let stripe: Stripe;

beforeAll(async () => {
  sandbox = await startSandboxProvider();
  const url = new URL(process.env.PAYMENT_PROVIDER_URL!);
  stripe = new Stripe(process.env.PAYMENT_PROVIDER_API_KEY!, {
    host: url.hostname,
    port: Number(url.port),
    protocol: "http",
    maxNetworkRetries: 0,
  });
});
afterAll(async () => {
  await sandbox?.stop();
});

describe("POST /v1/payment_intents with the official stripe package", () => {
  it("a confirmed pm_card_visa payment has succeeded, can be read back and refunded", async () => {
    const pi = await stripe.paymentIntents.create({
      amount: 4200,
      currency: "eur",
      confirm: true,
      payment_method: "pm_card_visa",
      metadata: { order: "ORD-9001" },
    });
    expect(pi).toMatchObject({
      object: "payment_intent",
      status: "succeeded",
      amount: 4200,
      amount_received: 4200,
      currency: "eur",
      payment_method: "pm_card_visa",
      metadata: { order: "ORD-9001" },
    });
    expect(pi.id).toMatch(/^pi_/);
    expect(pi.latest_charge).toMatch(/^ch_/);
    const read = await stripe.paymentIntents.retrieve(pi.id);
    expect(read).toMatchObject({ id: pi.id, status: "succeeded", amount: 4200, metadata: { order: "ORD-9001" } });
    const refund = await stripe.refunds.create({ payment_intent: pi.id, amount: 1000 });
    expect(refund).toMatchObject({ payment_intent: pi.id, amount: 1000, currency: "eur" });
  });

  it("refuses, with a Stripe error that says what it makes, a payment it cannot carry on", async () => {
    const refused = (params: Stripe.PaymentIntentCreateParams) =>
      stripe.paymentIntents.create(params).then(
        () => null,
        (e: Stripe.errors.StripeError) => ({ status: e.statusCode, type: e.type, param: e.param, message: e.message }),
      );
    expect(await refused({ amount: 100, currency: "eur" })).toMatchObject({
      status: 400,
      type: "StripeInvalidRequestError",
      param: "confirm",
      message: expect.stringContaining("confirm=true and payment_method=pm_card_visa") as unknown,
    });
    expect(
      await refused({ amount: 100, currency: "eur", confirm: true, payment_method: "pm_card_chargeDeclined" }),
    ).toMatchObject({ status: 400, param: "payment_method" });
    expect(await refused({ amount: 0, currency: "eur", confirm: true, payment_method: "pm_card_visa" })).toMatchObject({
      status: 400,
      param: "amount",
    });
    expect(
      await refused({ amount: 100, currency: "eur", confirm: true, payment_method: "pm_card_visa", customer: "cus_1" }),
    ).toMatchObject({ status: 400, param: "customer" });
  });
});
