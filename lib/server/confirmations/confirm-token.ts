import "server-only";
import { createHash, randomBytes } from "node:crypto";

/** A new confirm-link token: 32 random bytes, base64url (43 characters). Only its SHA-256 is stored. */
export function newConfirmToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What is stored and looked up: the token's SHA-256, lowercase hex. */
export function confirmTokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Whether a string can be a token at all (anything else is unknown without a database read). */
export const isTokenShaped = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);
