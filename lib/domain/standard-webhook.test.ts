import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { generateStandardWebhookSecret, signStandardWebhook, standardWebhookSecretOf } from "./standard-webhook";

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

describe("standardWebhookSecretOf (reviewer webhook secrets from before Standard Webhooks)", () => {
  it("writes a base64url key in standard base64 with the same key bytes; a standard secret stays as it is", () => {
    const bytes = Buffer.from(Array.from({ length: 32 }, (_, i) => 250 - i)); // encodes with - and _ in base64url
    const legacy = `whsec_${bytes.toString("base64url")}`;
    expect(legacy).toMatch(/[-_]/);
    const standard = standardWebhookSecretOf(legacy);
    expect(standard).toBe(`whsec_${bytes.toString("base64")}`);
    expect(standardWebhookSecretOf(standard)).toBe(standard);
    const fresh = generateStandardWebhookSecret();
    expect(standardWebhookSecretOf(fresh)).toBe(fresh);
    // Signed with the converted secret, the spec's package verifies with it.
    const headers = signStandardWebhook({ id: "msg_1", body: "{}", secrets: [standard] });
    expect(new Webhook(standard).verify("{}", headers)).toEqual({});
  });
});
