import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { stripeSignatureHeader } from "./signature";

const stripe = new Stripe("sk_test_unit");
const secret = "whsec_unit_test_secret";
const payload = JSON.stringify({
  id: "evt_1",
  object: "event",
  type: "refund.updated",
  data: { object: { id: "re_1", object: "refund" } },
});

describe("stripeSignatureHeader", () => {
  it("has Stripe's format: t=<unix seconds>,v1=<64 hex>", () => {
    expect(stripeSignatureHeader({ payload, secret, timestamp: 1_700_000_000 })).toMatch(
      /^t=1700000000,v1=[0-9a-f]{64}$/,
    );
  });

  it("matches the official library's own test header byte for byte", () => {
    const timestamp = 1_700_000_123;
    expect(stripeSignatureHeader({ payload, secret, timestamp })).toBe(
      stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp }),
    );
  });

  it("is accepted by stripe.webhooks.constructEvent, and refused for another body, secret or old timestamp", () => {
    const now = Math.floor(Date.now() / 1000);
    const header = stripeSignatureHeader({ payload, secret, timestamp: now });
    expect(stripe.webhooks.constructEvent(payload, header, secret).id).toBe("evt_1");
    expect(() => stripe.webhooks.constructEvent(payload.replace("re_1", "re_2"), header, secret)).toThrow();
    expect(() => stripe.webhooks.constructEvent(payload, header, "whsec_other")).toThrow();
    const old = stripeSignatureHeader({ payload, secret, timestamp: now - 3_600 });
    expect(() => stripe.webhooks.constructEvent(payload, old, secret, 300)).toThrow();
  });

  it("refuses an empty secret and a bad timestamp", () => {
    expect(() => stripeSignatureHeader({ payload, secret: "", timestamp: 1 })).toThrow();
    expect(() => stripeSignatureHeader({ payload, secret, timestamp: 1.5 })).toThrow();
  });
});
