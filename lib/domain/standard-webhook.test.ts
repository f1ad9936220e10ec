import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { generateStandardWebhookSecret, signStandardWebhook } from "./standard-webhook";

describe("Standard Webhooks signing", () => {
  const body = JSON.stringify({
    type: "proposal.approved",
    timestamp: "2026-12-01T10:00:00.000Z",
    data: { proposal_id: "p" },
  });

  it("signs as the spec says: base64 HMAC-SHA256 over id.timestamp.body with the whsec_ key", () => {
    const secret = generateStandardWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const now = new Date("2026-12-01T10:00:00Z");
    const h = signStandardWebhook({ id: "msg_1", body, secrets: [secret], now });
    const key = Buffer.from(secret.slice("whsec_".length), "base64");
    const expected = createHmac("sha256", key).update(`msg_1.${h["webhook-timestamp"]}.${body}`).digest("base64");
    expect(h).toEqual({
      "webhook-id": "msg_1",
      "webhook-timestamp": String(now.getTime() / 1000),
      "webhook-signature": `v1,${expected}`,
    });
  });

  it("verifies with the standardwebhooks package, with either secret during a rotation", () => {
    const current = generateStandardWebhookSecret();
    const previous = generateStandardWebhookSecret();
    const h = signStandardWebhook({ id: "msg_2", body, secrets: [current, previous] });
    expect(h["webhook-signature"].split(" ")).toHaveLength(2);
    expect(new Webhook(current).verify(body, h)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, h)).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateStandardWebhookSecret()).verify(body, h)).toThrow();
    expect(() => new Webhook(current).verify(body + " ", h)).toThrow();
  });

  it("refuses to sign without a secret", () => {
    expect(() => signStandardWebhook({ id: "x", body, secrets: [] })).toThrow();
  });
});
