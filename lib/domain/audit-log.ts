// The audit log recipe (v3, a transparency log) and its verifier, as pure code: the server, the sequencer,
// `npm run audit:verify` and the offline evidence-pack verifier use the same functions (docs/audit.md).
//
//   leaf data  = RFC 8785 canonical JSON of the event's content (AuditContent, with its id), UTF-8
//   leaf hash  = SHA-256(0x00 || leaf data)                          (RFC 9162 §2.1.1)
//   tree       = one RFC 9162 Merkle tree per log (a tenant, or the tenantless log), leaves in the order
//                the sequencer integrated them
//   checkpoint = Ed25519 signature over checkpointNote(log, size, root, time)
import { createPublicKey, verify, createHash, type KeyObject } from "node:crypto";
import canonicalize from "canonicalize";
import { appendLeaves, frontierRoot, leafHash, verifyConsistency, type Frontier, type Hex } from "./merkle";

/** The log of events that cannot be tied to a tenant (unknown agent keys, unknown sign-in names). */
export const TENANTLESS_LOG = "00000000-0000-0000-0000-000000000000";
export const logIdOf = (tenantId: string | null): string => tenantId ?? TENANTLESS_LOG;
export const tenantOfLog = (logId: string): string | null => (logId === TENANTLESS_LOG ? null : logId);

/** The fields of an audit event covered by its leaf hash (everything but `pos` and the hash itself). */
export type AuditContent = {
  id: string;
  tenantId: string | null;
  occurredAt: Date;
  traceId: string;
  actorType: string;
  actorId: string | null;
  authMethod: string | null;
  action: string;
  outcome: string;
  proposalId: string | null;
  proposalHash: string | null;
  model: string | null;
  promptVersion: string | null;
  channel: string | null;
  endUser: string | null;
  data: unknown;
  fingerprints: string[];
};

/** An event as stored: its content, its leaf hash, and its place in the tree once integrated (null: pending). */
export type LoggedEvent = AuditContent & { hash: string; leafIndex: number | null };

/** Exactly the content fields of an event (the one list of them), whatever else the row carries. */
export function auditContentOf(e: AuditContent): AuditContent {
  return {
    id: e.id,
    tenantId: e.tenantId,
    occurredAt: e.occurredAt,
    traceId: e.traceId,
    actorType: e.actorType,
    actorId: e.actorId,
    authMethod: e.authMethod,
    action: e.action,
    outcome: e.outcome,
    proposalId: e.proposalId,
    proposalHash: e.proposalHash,
    model: e.model,
    promptVersion: e.promptVersion,
    channel: e.channel,
    endUser: e.endUser,
    data: e.data,
    fingerprints: e.fingerprints,
  };
}

export function auditLeafData(e: AuditContent): string {
  const content = auditContentOf(e);
  // An object literal always canonicalizes to a string (undefined comes only from a top-level toJSON).
  return canonicalize({ v: 3, ...content, occurredAt: content.occurredAt.toISOString(), data: content.data ?? null })!;
}

export function auditLeafHash(e: AuditContent): Hex {
  return leafHash(auditLeafData(e));
}

/**
 * Events written under the hash chain (recipe v2, before the transparency_log migration) joined the tree
 * with this leaf over their stored chain hash: their content is bound by the old chain's hash only.
 */
export function legacyLeafHash(chainHash: string): Hex {
  return leafHash(`audit-v2:${chainHash}`);
}

// ---- Signed checkpoints --------------------------------------------------------------------------------

export type SignedCheckpoint = {
  logId: string;
  treeSize: number;
  rootHash: Hex;
  issuedAt: string;
  keyId: string;
  signature: string;
};

export const CHECKPOINT_FORMAT = "audit-checkpoint/v1";

/** The exact bytes an Ed25519 checkpoint signature covers (a C2SP-style note, one field per line). */
export function checkpointNote(cp: Pick<SignedCheckpoint, "logId" | "treeSize" | "rootHash" | "issuedAt">): string {
  return `${CHECKPOINT_FORMAT}\n${cp.logId}\n${cp.treeSize}\n${cp.rootHash}\n${cp.issuedAt}\n`;
}

const SPKI_ED25519_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

/** A public key from base64 of its 32 raw bytes, or PEM (SPKI). */
export function publicKeyFrom(text: string): KeyObject {
  const t = text.trim();
  if (t.startsWith("-----BEGIN")) return createPublicKey(t);
  const raw = Buffer.from(t, "base64");
  if (raw.length !== 32) throw new Error("an Ed25519 public key is 32 bytes (base64) or PEM");
  return createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, raw]), format: "der", type: "spki" });
}

export function rawPublicKey(key: KeyObject): Buffer {
  return (key.export({ format: "der", type: "spki" }) as Buffer).subarray(SPKI_ED25519_PREFIX.length);
}

/** The key id in checkpoints: first 16 hex characters of SHA-256 over the raw public key. */
export function keyIdOf(key: KeyObject): string {
  return createHash("sha256").update(rawPublicKey(key)).digest("hex").slice(0, 16);
}

export function verifyCheckpoint(cp: SignedCheckpoint, key: KeyObject): boolean {
  try {
    if (cp.keyId !== keyIdOf(key)) return false;
    return verify(null, Buffer.from(checkpointNote(cp)), key, Buffer.from(cp.signature, "base64"));
  } catch {
    return false;
  }
}

// ---- One history: what a signer remembers ----------------------------------------------------------------

/** The last checkpoint a signer signed for a log, as it keeps it outside the database. */
export type SignedHead = { treeSize: number; rootHash: Hex; issuedAt: string; keyId: string };

/**
 * Why the tree (`next`) is not a continuation of a head the signer already signed (`kept`); null when it is.
 * `proof` is the RFC 9162 consistency proof from kept's size to next's (null when it could not be built).
 * A smaller tree is a removed tail; the same size with another root, or no valid proof, a second history.
 */
export function divergenceFrom(
  kept: Pick<SignedHead, "treeSize" | "rootHash">,
  next: Pick<SignedHead, "treeSize" | "rootHash">,
  proof: readonly Hex[] | null,
): string | null {
  if (next.treeSize < kept.treeSize)
    return `tail truncated: a checkpoint of size ${kept.treeSize} was signed but the log now holds ${next.treeSize} leaves`;
  if (next.treeSize === kept.treeSize)
    return next.rootHash === kept.rootHash
      ? null
      : `fork: a different tree of size ${kept.treeSize} than the one signed (root ${kept.rootHash.slice(0, 16)}…)`;
  if (proof === null || !verifyConsistency(kept.treeSize, next.treeSize, kept.rootHash, next.rootHash, proof))
    return `fork: the tree of size ${next.treeSize} does not extend the signed checkpoint of size ${kept.treeSize}`;
  return null;
}

// ---- Whole-log verification ------------------------------------------------------------------------------

/** A retired signing key and when it signed (ISO instants). */
export type RetiredKey = { key: KeyObject; validFrom: string; validUntil: string };

/**
 * The keys of a published list (the JSON of GET /api/audit/public-keys, `{keys: [{publicKey, status,
 * validFrom, validUntil}]}`): the current key and the retired ones with their validity. A "next" key signs
 * no audit-checkpoint/v1 checkpoint and is left out. Throws when the list is not one.
 */
export function keysFromPublished(json: unknown): { current: KeyObject | null; retired: RetiredKey[] } {
  const keys = (json as { keys?: unknown })?.keys;
  if (!Array.isArray(keys)) throw new Error("not a published key list ({keys: [...]})");
  let current: KeyObject | null = null;
  const retired: RetiredKey[] = [];
  for (const k of keys as { publicKey?: unknown; status?: unknown; validFrom?: unknown; validUntil?: unknown }[]) {
    if (typeof k?.publicKey !== "string") throw new Error("a published key has a publicKey");
    if (k.status === "current") current = publicKeyFrom(k.publicKey);
    else if (k.status === "retired") {
      if (typeof k.validFrom !== "string" || typeof k.validUntil !== "string")
        throw new Error("a retired key has validFrom and validUntil");
      retired.push({ key: publicKeyFrom(k.publicKey), validFrom: k.validFrom, validUntil: k.validUntil });
    }
  }
  return { current, retired };
}

/** How a verifier names a retired key: its id and the period in which what it signed is valid. */
export const retiredKeyLabel = (r: RetiredKey) =>
  `retired key ${keyIdOf(r.key)} (valid ${r.validFrom} – ${r.validUntil})`;

/**
 * Which key signed a checkpoint: the current key, or (after a rotation) a retired key — which counts only for
 * a checkpoint issued within its validity: a signature by a retired key after it was retired is a failure
 * (whoever still holds it could sign anything), a signature inside its period is not tampering.
 */
export function checkpointSigner(
  cp: SignedCheckpoint,
  current: KeyObject | null,
  retiredKeys: readonly RetiredKey[],
): { ok: true; retired: RetiredKey | null } | { ok: false; problem: string } {
  if (current && verifyCheckpoint(cp, current)) return { ok: true, retired: null };
  const retired = retiredKeys.find((k) => keyIdOf(k.key) === cp.keyId);
  if (!retired || !verifyCheckpoint(cp, retired.key)) return { ok: false, problem: "is not signed by the audit key" };
  const at = new Date(cp.issuedAt).getTime();
  if (!(at >= new Date(retired.validFrom).getTime() && at <= new Date(retired.validUntil).getTime()))
    return {
      ok: false,
      problem: `is signed by ${retiredKeyLabel(retired)} outside its validity (issued ${cp.issuedAt})`,
    };
  return { ok: true, retired };
}

/** A leaf as stored, joined with its event when the event still exists. */
export type LeafRow = {
  leafIndex: number;
  leafHash: Hex;
  eventId: string;
  occurredAt: Date;
  /** The event's content and stored hash; null when the row is gone. */
  event: (AuditContent & { hash: string }) | null;
};

export type LogVerification =
  | { ok: true; leaves: number; checkpoints: number; purged: number; legacy: number; signedByRetired?: string[] }
  | { ok: false; leaves: number; brokenAtSeq: number; eventId: string | null; problem: string };

export type LogVerifyInput = {
  /** Leaves in ascending leafIndex (an async iterable lets the caller page through a large log). */
  leaves: Iterable<LeafRow> | AsyncIterable<LeafRow>;
  /** Checkpoints in ascending treeSize. */
  checkpoints: readonly SignedCheckpoint[];
  publicKey: KeyObject;
  /** Retired keys (rotation): each verifies the checkpoints it signed within its validity. */
  retiredKeys?: readonly RetiredKey[];
  /** Is a missing event covered by a retention purge (its content legitimately gone)? */
  purgedBefore: (occurredAt: Date, leafIndex: number) => boolean;
  /** Events that exist but are neither in the tree nor pending (forged or with a deleted queue row). */
  orphans?: readonly { id: string }[];
};

/**
 * Recomputes one log's tree from its leaves and checks, in one pass:
 * - each leaf is at its index (no gap, no reorder) and its event's content still hashes to it (or, for a
 *   purged event, a retention purge covers its time);
 * - every signed checkpoint is signed by the key and its root is the recomputed root at its size — so all
 *   checkpoints are prefixes of one append-only sequence (consistency), and a history rewritten with
 *   recomputed hashes fails at the first checkpoint that covers it (the attacker cannot sign).
 * Names the first leaf whose content no longer matches.
 */
export async function verifyLog(input: LogVerifyInput): Promise<LogVerification> {
  let frontier: Frontier = { size: 0, nodes: [] };
  const cps = [...input.checkpoints];
  let next = 0;
  let purged = 0;
  let legacy = 0;
  let count = 0;
  const fail = (brokenAtSeq: number, eventId: string | null, problem: string): LogVerification => ({
    ok: false,
    leaves: count,
    brokenAtSeq,
    eventId,
    problem,
  });

  const retiredUsed = new Set<string>();
  for (const cp of cps) {
    const signer = checkpointSigner(cp, input.publicKey, input.retiredKeys ?? []);
    if (!signer.ok) return fail(cp.treeSize - 1, null, `checkpoint of size ${cp.treeSize} ${signer.problem}`);
    if (signer.retired) retiredUsed.add(cp.keyId);
  }
  for (let i = 1; i < cps.length; i++)
    if (cps[i]!.treeSize <= cps[i - 1]!.treeSize)
      return fail(cps[i]!.treeSize - 1, null, "checkpoints are not in increasing size");

  const checkRoots = (): LogVerification | null => {
    while (next < cps.length && cps[next]!.treeSize === frontier.size) {
      if (cps[next]!.rootHash !== frontierRoot(frontier))
        return fail(
          frontier.size - 1,
          null,
          `tree of size ${frontier.size} does not match its signed checkpoint (history rewritten, reordered or deleted)`,
        );
      next += 1;
    }
    return null;
  };
  const early = checkRoots();
  if (early) return early;

  for await (const leaf of input.leaves) {
    if (leaf.leafIndex !== count)
      return fail(count, leaf.eventId, `expected leaf ${count}: a leaf is missing or out of order`);
    const e = leaf.event;
    if (e === null) {
      if (!input.purgedBefore(leaf.occurredAt, leaf.leafIndex))
        return fail(leaf.leafIndex, leaf.eventId, "event is missing (deleted outside a retention purge)");
      purged += 1;
    } else if (e.hash !== leaf.leafHash) {
      // A legacy event (hash chain v2) keeps its chain hash; its leaf is legacyLeafHash(chain hash).
      if (legacyLeafHash(e.hash) !== leaf.leafHash)
        return fail(leaf.leafIndex, e.id, "event hash differs from its leaf in the tree");
      legacy += 1;
    } else if (auditLeafHash(e) !== leaf.leafHash) {
      return fail(leaf.leafIndex, e.id, "content does not match its leaf hash");
    }
    frontier = appendLeaves(frontier, [leaf.leafHash]).frontier;
    count += 1;
    const bad = checkRoots();
    if (bad) return bad;
  }
  if (next < cps.length)
    return fail(
      count,
      null,
      `signed checkpoint of size ${cps[next]!.treeSize} but only ${count} leaves: leaves were deleted`,
    );
  const orphan = input.orphans?.[0];
  if (orphan)
    return fail(
      count,
      orphan.id,
      "event is neither in the tree nor waiting for the sequencer (inserted outside the writer?)",
    );
  return {
    ok: true,
    leaves: count,
    checkpoints: cps.length,
    purged,
    legacy,
    ...(retiredUsed.size ? { signedByRetired: [...retiredUsed] } : {}),
  };
}
