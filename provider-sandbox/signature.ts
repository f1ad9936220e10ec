// Stripe-style webhook signatures: `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` where the
// HMAC key is the whole endpoint secret (`whsec_…`, used as is) and the signed text is
// "<t>.<raw body>". This is exactly what `stripe.webhooks.constructEvent` verifies. Pure code.
import { createHmac } from "node:crypto";

export function stripeSignatureHeader(input: { payload: string; secret: string; timestamp: number }): string {
  if (!input.secret) throw new Error("webhook secret is empty");
  if (!Number.isSafeInteger(input.timestamp) || input.timestamp < 0) throw new Error("timestamp must be unix seconds");
  const v1 = createHmac("sha256", input.secret).update(`${input.timestamp}.${input.payload}`, "utf8").digest("hex");
  return `t=${input.timestamp},v1=${v1}`;
}
