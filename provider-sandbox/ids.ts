// Stripe-shaped object ids: a type prefix and 24 random base-62 characters (`re_…`, `evt_…`, `req_…`).
import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function newId(prefix: string, length = 24): string {
  const bytes = randomBytes(length * 2);
  let out = "";
  // Rejection sampling keeps the characters uniform (248 = 4 × 62).
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    const b = bytes[i]!;
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out.length === length ? `${prefix}_${out}` : newId(prefix, length);
}
