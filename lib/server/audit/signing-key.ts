import "server-only";
import { createPrivateKey, createPublicKey, sign, type KeyObject } from "node:crypto";
import { checkpointNote, keyIdOf, rawPublicKey, type SignedCheckpoint } from "@/lib/domain/audit-log";
import { secret } from "@/lib/server/env";

// The Ed25519 key that signs audit checkpoints: AUDIT_SIGNING_KEY is its 32-byte seed in base64
// (`openssl rand -base64 32`). The demo uses its public demo value; a production start refuses that value
// or none at all (lib/config/demo-secrets.ts). Only the worker's sequencer signs; the app serves the public
// key (/api/audit/public-key) so auditors can verify checkpoints and evidence packs offline.
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

type SigningKey = { privateKey: KeyObject; publicKey: KeyObject; keyId: string };
let cached: { seed: string; key: SigningKey } | null = null;

export function auditSigningKey(): SigningKey {
  const seed = secret("AUDIT_SIGNING_KEY");
  if (cached?.seed === seed) return cached.key;
  const raw = Buffer.from(seed, "base64");
  if (raw.length !== 32) throw new Error("AUDIT_SIGNING_KEY must be a 32-byte Ed25519 seed in base64");
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, raw]), format: "der", type: "pkcs8" });
  const publicKey = createPublicKey(privateKey);
  cached = { seed, key: { privateKey, publicKey, keyId: keyIdOf(publicKey) } };
  return cached.key;
}

export function signCheckpoint(cp: Omit<SignedCheckpoint, "keyId" | "signature">): SignedCheckpoint {
  const k = auditSigningKey();
  const signature = sign(null, Buffer.from(checkpointNote(cp), "utf8"), k.privateKey).toString("base64");
  return { ...cp, keyId: k.keyId, signature };
}

/** What /api/audit/public-key serves. */
export function auditPublicKey(): { algorithm: "Ed25519"; keyId: string; publicKey: string; pem: string } {
  const k = auditSigningKey();
  return {
    algorithm: "Ed25519",
    keyId: k.keyId,
    publicKey: rawPublicKey(k.publicKey).toString("base64"),
    pem: String(k.publicKey.export({ format: "pem", type: "spki" })),
  };
}
