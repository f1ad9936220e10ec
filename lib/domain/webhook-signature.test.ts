import { createHmac } from "node:crypto";
import * as crypto from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import {
  computeWebhookSignature,
  generateWebhookSecret,
  signWebhook,
  verifyWebhookSignature,
} from "./webhook-signature";

const secret = "whsec_test_secret";
const body = '{"type":"proposal.needs_review","id":"d1"}';
const now = new Date("2026-11-29T12:00:00.000Z");
const ts = Math.floor(now.getTime() / 1000);

describe("webhook signature", () => {
  it("is the hex HMAC-SHA256 of '<timestamp>.<body>' (independent computation)", () => {
    const expected = createHmac("sha256", secret).update(`${ts}.${body}`).digest("hex");
    expect(computeWebhookSignature(secret, ts, body)).toBe(expected);
    // Fixed vector, so a change to the recipe is caught even if both sides change together.
    expect(computeWebhookSignature("k", 1, "b")).toBe(createHmac("sha256", "k").update("1.b").digest("hex"));
  });

  it("signs with id, timestamp and a v1= signature", () => {
    const headers = signWebhook({ id: "d1", secret, body, now });
    expect(headers["X-Webhook-Id"]).toBe("d1");
    expect(headers["X-Webhook-Timestamp"]).toBe(String(ts));
    expect(headers["X-Webhook-Signature"]).toMatch(/^v1=[0-9a-f]{64}$/);
  });

  it("verifies its own signature", () => {
    const h = signWebhook({ id: "d1", secret, body, now });
    expect(
      verifyWebhookSignature({
        secret,
        body,
        timestamp: h["X-Webhook-Timestamp"],
        signature: h["X-Webhook-Signature"],
        now,
      }),
    ).toEqual({ ok: true });
  });

  it("refuses another body, another secret or another timestamp", () => {
    const h = signWebhook({ id: "d1", secret, body, now });
    const base = { secret, body, timestamp: h["X-Webhook-Timestamp"], signature: h["X-Webhook-Signature"], now };
    expect(verifyWebhookSignature({ ...base, body: body.replace("d1", "d2") })).toEqual({
      ok: false,
      reason: "mismatch",
    });
    expect(verifyWebhookSignature({ ...base, secret: "whsec_other" })).toEqual({ ok: false, reason: "mismatch" });
    expect(verifyWebhookSignature({ ...base, timestamp: String(ts + 1) })).toEqual({ ok: false, reason: "mismatch" });
  });

  it("enforces the tolerance window in both directions", () => {
    const h = signWebhook({ id: "d1", secret, body, now });
    const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
    const check = (seconds: number, toleranceSeconds?: number) =>
      verifyWebhookSignature({
        secret,
        body,
        timestamp: h["X-Webhook-Timestamp"],
        signature: h["X-Webhook-Signature"],
        now: at(seconds),
        toleranceSeconds,
      });
    expect(check(300).ok).toBe(true);
    expect(check(-300).ok).toBe(true);
    expect(check(301)).toEqual({ ok: false, reason: "outside_tolerance" });
    expect(check(-301)).toEqual({ ok: false, reason: "outside_tolerance" });
    expect(check(20, 10)).toEqual({ ok: false, reason: "outside_tolerance" });
  });

  it("accepts any one of several v1 signatures (secret rotation) and ignores other versions", () => {
    const h = signWebhook({ id: "d1", secret, body, now });
    const other = `v1=${"0".repeat(64)}`;
    const base = { secret, body, timestamp: h["X-Webhook-Timestamp"], now };
    expect(verifyWebhookSignature({ ...base, signature: `${other}, ${h["X-Webhook-Signature"]}` }).ok).toBe(true);
    expect(verifyWebhookSignature({ ...base, signature: `${other} ${h["X-Webhook-Signature"]}` }).ok).toBe(true);
    expect(verifyWebhookSignature({ ...base, signature: h["X-Webhook-Signature"].replace("v1=", "v0=") })).toEqual({
      ok: false,
      reason: "malformed",
    });
  });

  it("answers malformed for missing or garbled input without throwing", () => {
    const base = { secret, body, now };
    expect(verifyWebhookSignature({ ...base, timestamp: null, signature: "v1=ab" })).toEqual({
      ok: false,
      reason: "malformed",
    });
    expect(verifyWebhookSignature({ ...base, timestamp: String(ts), signature: undefined })).toEqual({
      ok: false,
      reason: "malformed",
    });
    expect(verifyWebhookSignature({ ...base, timestamp: "12a", signature: "v1=ab" })).toEqual({
      ok: false,
      reason: "malformed",
    });
    expect(verifyWebhookSignature({ ...base, timestamp: String(ts), signature: "v1=zz" })).toEqual({
      ok: false,
      reason: "mismatch",
    });
    expect(verifyWebhookSignature({ ...base, timestamp: String(ts), signature: "v1=abcd" })).toEqual({
      ok: false,
      reason: "mismatch",
    });
    expect(verifyWebhookSignature({ ...base, secret: "", timestamp: String(ts), signature: "v1=abcd" })).toEqual({
      ok: false,
      reason: "malformed",
    });
  });

  it("compares in constant time (crypto.timingSafeEqual), never with ===", async () => {
    // ESM namespaces cannot be spied on directly; re-import the module with a mocked node:crypto.
    vi.resetModules();
    const spy = vi.fn(crypto.timingSafeEqual);
    vi.doMock("node:crypto", () => ({ ...crypto, timingSafeEqual: spy }));
    const mod = await import("./webhook-signature");
    const h = mod.signWebhook({ id: "d1", secret, body, now });
    expect(
      mod.verifyWebhookSignature({
        secret,
        body,
        timestamp: h["X-Webhook-Timestamp"],
        signature: h["X-Webhook-Signature"],
        now,
      }).ok,
    ).toBe(true);
    expect(spy).toHaveBeenCalledTimes(1);
    vi.doUnmock("node:crypto");
  });

  it("rejects an empty secret when signing", () => {
    expect(() => signWebhook({ id: "d1", secret: "", body })).toThrow();
  });

  it("generates distinct, long random secrets", () => {
    const a = generateWebhookSecret();
    const b = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
  });
});
