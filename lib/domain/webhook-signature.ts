// Signing of outgoing webhooks (reviewer notifications). Pure code, no I/O.
//
// Scheme (documented for receivers in docs/jobs.md):
//   X-Webhook-Id:        the delivery id (stable across retries: receivers deduplicate on it)
//   X-Webhook-Timestamp: unix seconds when this attempt was signed
//   X-Webhook-Signature: v1=<lowercase hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>
// The header may carry several space- or comma-separated `v1=` values (secret rotation); one match is
// enough. A receiver refuses a timestamp outside its tolerance window, which bounds replays.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

// Stryker disable next-line StringLiteral: a module-level constant (static mutant, not activated per test); domain-edges.test.ts asserts it.
export const SIGNATURE_VERSION = "v1";
export const DEFAULT_TOLERANCE_SECONDS = 300;
// Stryker disable next-line StringLiteral: a module-level constant (static mutant, not activated per test); domain-edges.test.ts asserts it.
export const WEBHOOK_SECRET_PREFIX = "whsec_";

export type SignedHeaders = {
  "X-Webhook-Id": string;
  "X-Webhook-Timestamp": string;
  "X-Webhook-Signature": string;
};

/** Hex HMAC-SHA256 of "<timestamp>.<body>". */
export function computeWebhookSignature(secret: string, timestamp: number, body: string): string {
  if (!secret) throw new Error("webhook secret is empty");
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new Error("timestamp must be unix seconds");
  return createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

/** The three headers of one delivery attempt. `now` is injectable for tests. */
export function signWebhook(input: { id: string; secret: string; body: string; now?: Date }): SignedHeaders {
  const timestamp = Math.floor((input.now ?? new Date()).getTime() / 1000);
  return {
    "X-Webhook-Id": input.id,
    "X-Webhook-Timestamp": String(timestamp),
    "X-Webhook-Signature": `${SIGNATURE_VERSION}=${computeWebhookSignature(input.secret, timestamp, input.body)}`,
  };
}

export type VerifyResult = { ok: true } | { ok: false; reason: "malformed" | "outside_tolerance" | "mismatch" };

/**
 * For receivers (and our tests): checks the timestamp window, then compares every `v1=` signature of
 * the header with the expected one in constant time.
 */
export function verifyWebhookSignature(input: {
  secret: string;
  body: string;
  timestamp: string | null | undefined;
  signature: string | null | undefined;
  toleranceSeconds?: number;
  now?: Date;
}): VerifyResult {
  const { secret, body } = input;
  if (!secret || !input.timestamp || !input.signature || !/^\d{1,12}$/.test(input.timestamp))
    return { ok: false, reason: "malformed" };
  const timestamp = Number(input.timestamp);
  const nowSeconds = Math.floor((input.now ?? new Date()).getTime() / 1000);
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(nowSeconds - timestamp) > tolerance) return { ok: false, reason: "outside_tolerance" };

  const expected = Buffer.from(computeWebhookSignature(secret, timestamp, body), "hex");
  const candidates = input.signature
    .split(/[\s,]/) // empty parts (", ") are dropped by the filter
    .filter((part) => part.startsWith(`${SIGNATURE_VERSION}=`))
    .map((part) => part.slice(SIGNATURE_VERSION.length + 1));
  if (candidates.length === 0) return { ok: false, reason: "malformed" };
  let matched = false;
  for (const candidate of candidates) {
    if (!/^[0-9a-f]{64}$/i.test(candidate)) continue;
    // Same length by construction (32 bytes), so timingSafeEqual never throws here.
    if (timingSafeEqual(Buffer.from(candidate, "hex"), expected)) matched = true;
  }
  return matched ? { ok: true } : { ok: false, reason: "mismatch" };
}

/** A new random signing secret (shown to the admin once). */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString("base64url");
}
