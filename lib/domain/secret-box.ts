// Secrets a tenant gives us (its payment provider's restricted key and webhook secret) kept encrypted at
// rest with AES-256-GCM under SECRETS_KEY (docs/systems-of-record.md "Per-tenant connection", docs/operations.md
// "Rotating SECRETS_KEY"). Only the standard GCM API of node:crypto: a random 12-byte IV per sealing, the
// 16-byte tag checked on opening, and additional authenticated data (AAD) binding the plaintext to where it
// belongs (tenant and field), so a row copied to another tenant, or one column copied into another, does
// not open. The key's id is stored beside the ciphertext, so a rotation knows which key opens which row.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

export type SecretsKey = { id: string; bytes: Buffer };

/** Why a value cannot be SECRETS_KEY (null when it can): 32 bytes as 64 hex digits or as base64 / base64url. */
export function secretsKeyFormatProblem(raw: string): string | null {
  const bytes = decodeKey(raw);
  return bytes
    ? null
    : "must be 32 random bytes as 64 hex digits or as base64 (generate one with `openssl rand -base64 32`)";
}

function decodeKey(raw: string): Buffer | null {
  const value = raw.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, "hex");
  if (!/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(value)) return null;
  const bytes = Buffer.from(value.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return bytes.length === 32 ? bytes : null;
}

/** The key as the box uses it; its id is the first 8 bytes of SHA-256 over a label and the key (hex), never the key. */
export function parseSecretsKey(raw: string): SecretsKey {
  const bytes = decodeKey(raw);
  if (!bytes) throw new SecretBoxError("bad_key", `SECRETS_KEY ${secretsKeyFormatProblem(raw)}`);
  return {
    id: createHash("sha256").update("approval-gateway secrets key\n").update(bytes).digest("hex").slice(0, 16),
    bytes,
  };
}

export type SecretBoxErrorKind = "bad_key" | "unknown_key" | "malformed" | "not_authentic";

/** Opening or sealing refused. Never carries the plaintext or the key. */
export class SecretBoxError extends Error {
  constructor(
    readonly kind: SecretBoxErrorKind,
    message: string,
  ) {
    super(message);
    this.name = "SecretBoxError";
  }
}

/** A sealed value: `v1.<iv>.<ciphertext>.<tag>` (base64url), and the id of the key that sealed it. */
export type Sealed = { keyId: string; sealed: string };

export function sealSecret(key: SecretsKey, plaintext: string, aad: string): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key.bytes, iv);
  cipher.setAAD(Buffer.from(aad, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return {
    keyId: key.id,
    sealed: ["v1", iv.toString("base64url"), ciphertext.toString("base64url"), tag.toString("base64url")].join("."),
  };
}

/**
 * Opens a sealed value with whichever of `keys` has its id. Refuses (SecretBoxError, never a crash) when no
 * key has that id (the key was removed too early in a rotation), when the value is not in the box's format,
 * or when the tag does not verify: a wrong key under the same id, a changed ciphertext, or another AAD (a
 * row of another tenant).
 */
export function openSecret(keys: readonly SecretsKey[], value: Sealed, aad: string): string {
  const key = keys.find((k) => k.id === value.keyId);
  if (!key)
    throw new SecretBoxError(
      "unknown_key",
      `no configured SECRETS_KEY has id ${value.keyId} (set the key it was sealed with as SECRETS_KEY_PREVIOUS)`,
    );
  const parts = value.sealed.split(".");
  if (parts.length !== 4 || parts[0] !== "v1")
    throw new SecretBoxError("malformed", "the sealed value is not in the v1 format");
  const [iv, ciphertext, tag] = parts.slice(1).map((p) => Buffer.from(p, "base64url")) as [Buffer, Buffer, Buffer];
  if (iv.length !== 12 || tag.length !== 16)
    throw new SecretBoxError("malformed", "the sealed value has a bad IV or tag length");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.bytes, iv, { authTagLength: 16 });
    decipher.setAAD(Buffer.from(aad, "utf8"));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretBoxError(
      "not_authentic",
      `the sealed value does not open with key ${key.id}: wrong key, changed data, or a row of another tenant`,
    );
  }
}

/** The AAD of one secret: the tenant it belongs to and the field it sits in. */
export const secretAad = (tenantId: string, field: string) => `tenant:${tenantId}\nfield:${field}`;

/** What may be shown of a credential: its type prefix and last 4 characters (`rk_test_…abcd`). */
export function secretHint(value: string): string {
  const prefix = /^[a-z]+_(?:test_|live_)?/.exec(value)?.[0] ?? "";
  return `${prefix}…${value.length >= 12 ? value.slice(-4) : ""}`;
}
