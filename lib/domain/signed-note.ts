// C2SP signed notes, checkpoints and cosignatures as pure code (c2sp.org/signed-note, tlog-checkpoint,
// tlog-cosignature): the sequencer signs with it, `npm run witness` cosigns with it, `npm run audit:monitor`
// and `npm run evidence:verify` check with it. Interoperability with an implementation we did not write
// (Go's golang.org/x/mod/sumdb/note) is tested in tests/integration/audit-c2sp-go.test.ts.
//
//   note        = text (ending in "\n") + "\n" + signature lines "— <name> base64(keyId[4] ‖ signature)\n"
//   key id      = SHA-256(name ‖ 0x0A ‖ type ‖ public key)[:4]; type 0x01 Ed25519, 0x04 Ed25519 cosignature/v1
//   vkey        = <name>+<hex key id>+base64(type ‖ public key)
//   checkpoint  = note text "<origin>\n<size>\n<base64 RFC 6962 root>\n"
//   cosignature = Ed25519 over "cosignature/v1\ntime <t>\n" + checkpoint text; signature = u64 t (BE) ‖ sig
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from "node:crypto";

export const SIG_ED25519 = 0x01;
export const SIG_COSIGNATURE_V1 = 0x04;

const SPKI_ED25519_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

/** The Ed25519 key pair of a 32-byte seed (AUDIT_SIGNING_KEY, a witness's state file). */
export function ed25519FromSeed(seed: Buffer): { privateKey: KeyObject; publicKey: KeyObject } {
  if (seed.length !== 32) throw new Error("an Ed25519 seed is 32 bytes");
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: "der",
    type: "pkcs8",
  });
  return { privateKey, publicKey: createPublicKey(privateKey) };
}
const rawOf = (key: KeyObject) =>
  (key.export({ format: "der", type: "spki" }) as Buffer).subarray(SPKI_ED25519_PREFIX.length);
const keyFromRaw = (raw: Buffer) =>
  createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, raw]), format: "der", type: "spki" });

/** Key names are non-empty and hold no Unicode space and no "+" (signed-note). */
export function validKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/.test(name);
}

export function noteKeyId(name: string, type: number, publicKey: KeyObject): Buffer {
  return createHash("sha256")
    .update(Buffer.concat([Buffer.from(name, "utf8"), Buffer.from([0x0a, type]), rawOf(publicKey)]))
    .digest()
    .subarray(0, 4);
}

export type Vkey = { name: string; keyId: Buffer; type: number; publicKey: KeyObject; text: string };

export function vkeyOf(name: string, type: number, publicKey: KeyObject): string {
  if (!validKeyName(name)) throw new Error(`not a key name: ${JSON.stringify(name)}`);
  return `${name}+${noteKeyId(name, type, publicKey).toString("hex")}+${Buffer.concat([Buffer.from([type]), rawOf(publicKey)]).toString("base64")}`;
}

/** Parses a vkey; throws on anything but an Ed25519 (0x01) or cosignature/v1 (0x04) key whose id matches. */
export function parseVkey(text: string): Vkey {
  // The name holds no "+"; the base64 key may.
  const m = /^([^+]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/.exec(text.trim());
  if (!m || !validKeyName(m[1]!)) throw new Error("a vkey is <name>+<key id hex>+<base64 key>");
  const [, name, idHex, b64] = m as unknown as [string, string, string, string];
  const bytes = Buffer.from(b64, "base64");
  if (bytes.toString("base64") !== b64) throw new Error("the vkey's key is not base64");
  const type = bytes[0]!;
  if ((type !== SIG_ED25519 && type !== SIG_COSIGNATURE_V1) || bytes.length !== 33)
    throw new Error("only Ed25519 vkeys (type 0x01 or 0x04) are supported");
  const publicKey = keyFromRaw(bytes.subarray(1));
  const keyId = noteKeyId(name, type, publicKey);
  if (keyId.toString("hex") !== idHex) throw new Error("the vkey's key id does not match its name and key");
  return { name, keyId, type, publicKey, text: text.trim() };
}

export type NoteSignature = { name: string; keyId: Buffer; signature: Buffer; line: string };

/** One signature line ("— name base64\n"). */
export function signatureLine(name: string, keyId: Buffer, signature: Buffer): string {
  return `\u2014 ${name} ${Buffer.concat([keyId, signature]).toString("base64")}\n`;
}

/** An Ed25519 (0x01) signature line over a note text. */
export function signNote(text: string, name: string, privateKey: KeyObject, publicKey: KeyObject): string {
  return signatureLine(
    name,
    noteKeyId(name, SIG_ED25519, publicKey),
    sign(null, Buffer.from(text, "utf8"), privateKey),
  );
}

/** Splits a signed note into its text and signature lines; throws when it is not one. */
export function parseNote(note: string): { text: string; signatures: NoteSignature[] } {
  // eslint-disable-next-line no-control-regex -- the format forbids control characters other than newline
  if (/[\u0000-\u0009\u000b-\u001f]/.test(note)) throw new Error("a note holds no control characters but newline");
  const at = note.lastIndexOf("\n\n");
  if (at < 0 || !note.endsWith("\n")) throw new Error("a note is text, a blank line and signature lines");
  const text = note.slice(0, at + 1);
  const lines = note.slice(at + 2, -1).split("\n");
  const signatures = lines.map((line) => {
    const m = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/.exec(line);
    if (!m || !validKeyName(m[1]!)) throw new Error(`not a signature line: ${JSON.stringify(line.slice(0, 80))}`);
    const bytes = Buffer.from(m[2]!, "base64");
    if (bytes.length < 5) throw new Error("a signature is a key id and signature bytes");
    return { name: m[1]!, keyId: bytes.subarray(0, 4), signature: bytes.subarray(4), line: `${line}\n` };
  });
  if (signatures.length === 0) throw new Error("a note has at least one signature");
  return { text, signatures };
}

const sameKey = (s: NoteSignature, k: Vkey) => s.name === k.name && s.keyId.equals(k.keyId);

/**
 * The signature lines of `note` made by `key` that verify. A line by the key (same name and id) that does
 * not verify throws: such a note is malformed (signed-note). Lines of other keys are ignored.
 */
export function verifiedBy(note: string, key: Vkey): NoteSignature[] {
  const { text, signatures } = parseNote(note);
  const mine = signatures.filter((s) => sameKey(s, key));
  for (const s of mine) {
    const ok =
      key.type === SIG_ED25519
        ? verify(null, Buffer.from(text, "utf8"), key.publicKey, s.signature)
        : s.signature.length === 72 &&
          verify(
            null,
            cosignatureMessage(text, Number(s.signature.readBigUInt64BE(0))),
            key.publicKey,
            s.signature.subarray(8),
          );
    if (!ok) throw new Error(`the signature of ${key.name} does not verify`);
  }
  return mine;
}

// ---- Checkpoints -----------------------------------------------------------------------------------------

export type Checkpoint = { origin: string; treeSize: number; rootHash: string };

/** The checkpoint body (note text); rootHash is lowercase hex, shown base64. */
export function checkpointText(cp: Checkpoint): string {
  return `${cp.origin}\n${cp.treeSize}\n${Buffer.from(cp.rootHash, "hex").toString("base64")}\n`;
}

/** Reads a checkpoint body (origin, size without leading zeros, base64 32-byte root; extension lines ignored). */
export function parseCheckpointText(text: string): Checkpoint {
  const lines = text.split("\n");
  if (lines.length < 4 || lines.at(-1) !== "" || lines.slice(0, -1).some((l) => l === ""))
    throw new Error("a checkpoint is origin, size and root lines");
  const [origin, size, root] = lines as [string, string, string];
  if (!/^(0|[1-9][0-9]{0,15})$/.test(size)) throw new Error("the tree size is a decimal without leading zeros");
  const hash = Buffer.from(root, "base64");
  if (hash.length !== 32 || hash.toString("base64") !== root) throw new Error("the root is a base64 SHA-256 hash");
  return { origin, treeSize: Number(size), rootHash: hash.toString("hex") };
}

// ---- Cosignatures (cosignature/v1, Ed25519) ----------------------------------------------------------------

export function cosignatureMessage(checkpointBody: string, time: number): Buffer {
  return Buffer.from(`cosignature/v1\ntime ${time}\n${checkpointBody}`, "utf8");
}

/** A cosignature/v1 line by a witness key over a checkpoint body, at `time` (POSIX seconds). */
export function cosign(
  checkpointBody: string,
  name: string,
  privateKey: KeyObject,
  publicKey: KeyObject,
  time: number,
): string {
  const ts = Buffer.alloc(8);
  ts.writeBigUInt64BE(BigInt(time));
  const sig = sign(null, cosignatureMessage(checkpointBody, time), privateKey);
  return signatureLine(name, noteKeyId(name, SIG_COSIGNATURE_V1, publicKey), Buffer.concat([ts, sig]));
}

/** The time a verified cosignature line states (POSIX seconds). */
export const cosignatureTime = (s: NoteSignature) => Number(s.signature.readBigUInt64BE(0));
