// Signing of decision webhooks in the Standard Webhooks format (standardwebhooks.com; docs/agent-api.md
// "Decision webhooks"). Pure code, no I/O. The signing itself is the `standardwebhooks` package (the spec's
// reference implementation): `v1,<base64 HMAC-SHA256(key, "{id}.{timestamp}.{body}")>`, where the key is the
// base64 part of the `whsec_…` secret. During a secret rotation both secrets sign: the header carries two
// space-separated `v1,` signatures, and a receiver that knows either one verifies.
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

export const STANDARD_WEBHOOK_SECRET_PREFIX = "whsec_";

export type StandardWebhookHeaders = { "webhook-id": string; "webhook-timestamp": string; "webhook-signature": string };

/** A new random secret, `whsec_` + base64 of 32 bytes (the format the spec's libraries read). */
export function generateStandardWebhookSecret(): string {
  return STANDARD_WEBHOOK_SECRET_PREFIX + randomBytes(32).toString("base64");
}

/**
 * A `whsec_` secret whose key part is written in base64url (the reviewer webhook's secrets before they moved to
 * Standard Webhooks) in the standard base64 the spec's libraries read; the key bytes are the same. Others as given.
 */
export function standardWebhookSecretOf(secret: string): string {
  if (!secret.startsWith(STANDARD_WEBHOOK_SECRET_PREFIX)) return secret;
  const key = secret.slice(STANDARD_WEBHOOK_SECRET_PREFIX.length);
  if (!/[-_]/.test(key) && key.length % 4 === 0) return secret;
  return STANDARD_WEBHOOK_SECRET_PREFIX + Buffer.from(key, "base64url").toString("base64");
}

/** The three headers of one attempt, signed with every given secret (current first). */
export function signStandardWebhook(input: {
  id: string;
  body: string;
  secrets: readonly string[];
  now?: Date;
}): StandardWebhookHeaders {
  if (input.secrets.length === 0) throw new Error("no webhook secret to sign with");
  const now = input.now ?? new Date();
  const signatures = input.secrets.map((secret) => new Webhook(secret).sign(input.id, now, input.body));
  return {
    "webhook-id": input.id,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": signatures.join(" "),
  };
}
