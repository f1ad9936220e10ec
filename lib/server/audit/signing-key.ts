import "server-only";
import { sign, type KeyObject } from "node:crypto";
import {
  checkpointNote,
  keyIdOf,
  publicKeyFrom,
  rawPublicKey,
  type RetiredKey,
  type SignedCheckpoint,
} from "@/lib/domain/audit-log";
import {
  SIG_ED25519,
  checkpointText,
  ed25519FromSeed,
  signNote,
  vkeyOf,
  type Checkpoint,
} from "@/lib/domain/signed-note";
import { appBaseUrl, auditKeyRotation, secret } from "@/lib/server/env";

// The Ed25519 key that signs audit checkpoints: AUDIT_SIGNING_KEY is its 32-byte seed in base64
// (`openssl rand -base64 32`). The demo uses its public demo value; a production start refuses that value
// or none at all (lib/config/demo-secrets.ts). Only the worker's sequencer signs; the app serves the public
// key (/api/audit/public-key) so auditors can verify checkpoints and evidence packs offline.

type SigningKey = { privateKey: KeyObject; publicKey: KeyObject; keyId: string };
const cache = new Map<string, SigningKey>();

function keyFromSeed(seed: string, name: string): SigningKey {
  const hit = cache.get(seed);
  if (hit) return hit;
  const raw = Buffer.from(seed, "base64");
  if (raw.length !== 32) throw new Error(`${name} must be a 32-byte Ed25519 seed in base64`);
  const { privateKey, publicKey } = ed25519FromSeed(raw);
  const key = { privateKey, publicKey, keyId: keyIdOf(publicKey) };
  cache.set(seed, key);
  return key;
}

export function auditSigningKey(): SigningKey {
  return keyFromSeed(secret("AUDIT_SIGNING_KEY"), "AUDIT_SIGNING_KEY");
}

/** The next key of a rotation (AUDIT_SIGNING_KEY_NEXT), and whether its overlap (co-signing) has begun. */
function nextKey(now = new Date()): { key: SigningKey; from: string | null; signing: boolean } | null {
  const r = auditKeyRotation();
  if (!r.next) return null;
  return {
    key: keyFromSeed(r.next, "AUDIT_SIGNING_KEY_NEXT"),
    from: r.nextFrom,
    signing: r.nextFrom !== null && new Date(r.nextFrom) <= now,
  };
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

// ---- C2SP (docs/audit.md "Standard checkpoints") --------------------------------------------------------

/**
 * The note key's name: "<host>/audit", one name for every log of this installation, so one vkey per key
 * (GET /api/audit/public-keys). Origins are "<host>/audit/<logId>": the name is their common prefix rather
 * than each origin (c2sp.org/tlog-checkpoint says SHOULD match), so a witness or monitor pins one vkey.
 */
export function auditKeyName(): string {
  return `${new URL(appBaseUrl()).host}/audit`;
}

export const auditOrigin = (logId: string) => `${auditKeyName()}/${logId}`;

/** The C2SP signature line(s) over a checkpoint's note text: the current key's, and during a rotation's overlap the next key's too. */
export function signCheckpointNote(cp: Checkpoint): string {
  const text = checkpointText(cp);
  const keys = [auditSigningKey(), ...((n) => (n?.signing ? [n.key] : []))(nextKey())];
  return keys.map((k) => signNote(text, auditKeyName(), k.privateKey, k.publicKey)).join("");
}

export type PublishedKey = {
  /** The id in audit-checkpoint/v1 checkpoints (16 hex of SHA-256 of the raw key). */
  keyId: string;
  /** The C2SP vkey ("<host>/audit+<key id>+<base64(0x01 ‖ key)>"). */
  vkey: string;
  publicKey: string;
  status: "current" | "next" | "retired";
  /** When it signs (null: open). A retired key verifies what it signed between validFrom and validUntil. */
  validFrom: string | null;
  validUntil: string | null;
};

/** What GET /api/audit/public-keys lists: the current key, the next (published before it signs), the retired. */
export function auditPublicKeys(): PublishedKey[] {
  const name = auditKeyName();
  const entry = (
    publicKey: KeyObject,
    status: PublishedKey["status"],
    validFrom: string | null,
    validUntil: string | null,
  ): PublishedKey => ({
    keyId: keyIdOf(publicKey),
    vkey: vkeyOf(name, SIG_ED25519, publicKey),
    publicKey: rawPublicKey(publicKey).toString("base64"),
    status,
    validFrom,
    validUntil,
  });
  const next = nextKey();
  const retired = auditKeyRotation().retired;
  const since =
    retired
      .map((r) => r.validUntil)
      .sort()
      .at(-1) ?? null;
  return [
    entry(auditSigningKey().publicKey, "current", since, null),
    ...(next ? [entry(next.key.publicKey, "next" as const, next.from, null)] : []),
    ...retired.map((r) => entry(publicKeyFrom(r.publicKey), "retired", r.validFrom, r.validUntil)),
  ];
}

/** The current key as a C2SP vkey. */
export function auditVkey(): string {
  return vkeyOf(auditKeyName(), SIG_ED25519, auditSigningKey().publicKey);
}

/** Keys retired by a rotation (AUDIT_SIGNING_KEYS_RETIRED), each with the period in which what it signed is valid. */
export function auditRetiredKeys(): RetiredKey[] {
  return auditKeyRotation().retired.map((r) => ({
    key: publicKeyFrom(r.publicKey),
    validFrom: r.validFrom,
    validUntil: r.validUntil,
  }));
}
