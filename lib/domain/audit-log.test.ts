// The audit log recipe and its whole-log verifier as pure code, without a database: every way a log can be
// broken is named with the leaf where it breaks (the integration tests exercise the same verifier on real rows).
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  TENANTLESS_LOG,
  auditContentOf,
  auditLeafData,
  auditLeafHash,
  checkpointNote,
  divergenceFrom,
  keyIdOf,
  legacyLeafHash,
  logIdOf,
  publicKeyFrom,
  rawPublicKey,
  tenantOfLog,
  verifyCheckpoint,
  verifyLog,
  type AuditContent,
  type LeafRow,
  type LogVerifyInput,
  type SignedCheckpoint,
} from "./audit-log";
import { EMPTY_ROOT, appendLeaves, consistencyProof, getterOf, leafHash, merkleRoot, type Hex } from "./merkle";

const keys = generateKeyPairSync("ed25519");
const otherKeys = generateKeyPairSync("ed25519");
const tenantId = "00000000-0000-4000-8000-000000000001";

const content = (i: number): AuditContent => ({
  id: `e${i}`,
  tenantId,
  occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
  traceId: "tr",
  actorType: "agent",
  actorId: "key",
  authMethod: null,
  action: "tool:lookup_order",
  outcome: "ok",
  proposalId: null,
  proposalHash: null,
  model: null,
  promptVersion: null,
  channel: null,
  endUser: null,
  data: { n: i },
  fingerprints: [],
});

function checkpoint(leaves: readonly Hex[], size: number, k = keys): SignedCheckpoint {
  const cp = {
    logId: tenantId,
    treeSize: size,
    rootHash: merkleRoot(leaves.slice(0, size)),
    issuedAt: "2026-01-01T00:01:00.000Z",
  };
  return {
    ...cp,
    keyId: keyIdOf(k.publicKey),
    signature: sign(null, Buffer.from(checkpointNote(cp)), k.privateKey).toString("base64"),
  };
}

/** A sound log of n events, each leaf holding its event. */
function log(n: number) {
  const rows: LeafRow[] = Array.from({ length: n }, (_, i) => {
    const c = content(i);
    const h = auditLeafHash(c);
    return { leafIndex: i, leafHash: h, eventId: c.id, occurredAt: c.occurredAt, event: { ...c, hash: h } };
  });
  return { rows, hashes: rows.map((r) => r.leafHash) };
}

const input = (over: Partial<LogVerifyInput> & Pick<LogVerifyInput, "leaves">): LogVerifyInput => ({
  checkpoints: [],
  publicKey: keys.publicKey,
  purgedBefore: () => false,
  ...over,
});

describe("log ids", () => {
  it("maps the tenantless log to the nil UUID and back", () => {
    expect(TENANTLESS_LOG).toBe("00000000-0000-0000-0000-000000000000");
    expect(logIdOf(null)).toBe(TENANTLESS_LOG);
    expect(logIdOf(tenantId)).toBe(tenantId);
    expect(tenantOfLog(TENANTLESS_LOG)).toBeNull();
    expect(tenantOfLog(tenantId)).toBe(tenantId);
  });
});

describe("leaf recipe (v3)", () => {
  it("is the canonical JSON of exactly the content fields, with v 3, ISO time and null data", () => {
    const c = content(1);
    const withExtras = { ...c, hash: "x", leafIndex: 4, pos: 9 } as AuditContent;
    expect(auditContentOf(withExtras)).toStrictEqual(c);
    expect(auditLeafData(withExtras)).toBe(
      '{"action":"tool:lookup_order","actorId":"key","actorType":"agent","authMethod":null,"channel":null,"data":{"n":1},"endUser":null,' +
        `"fingerprints":[],"id":"e1","model":null,"occurredAt":"2026-01-01T00:00:01.000Z","outcome":"ok","promptVersion":null,"proposalHash":null,"proposalId":null,"tenantId":"${tenantId}","traceId":"tr","v":3}`,
    );
    expect(auditLeafData({ ...c, data: undefined })).toContain('"data":null');
    expect(auditLeafData({ ...c, data: null })).toContain('"data":null');
    expect(auditLeafHash(c)).toBe(leafHash(auditLeafData(c)));
  });
  it("a legacy (v2 chain) leaf covers the stored chain hash", () => {
    expect(legacyLeafHash("abc")).toBe(leafHash("audit-v2:abc"));
  });
});

describe("checkpoints", () => {
  it("sign a note of one field per line", () => {
    expect(checkpointNote({ logId: "L", treeSize: 3, rootHash: "ab", issuedAt: "T" })).toBe(
      "audit-checkpoint/v1\nL\n3\nab\nT\n",
    );
  });
  it("read the public key as raw base64 (trimmed) or PEM, and refuse other lengths", () => {
    const raw = rawPublicKey(keys.publicKey);
    expect(raw).toHaveLength(32);
    const pem = String(keys.publicKey.export({ format: "pem", type: "spki" }));
    for (const text of [raw.toString("base64"), ` ${raw.toString("base64")}\n`, pem, `\n${pem}`]) {
      expect(rawPublicKey(publicKeyFrom(text)).equals(raw)).toBe(true);
    }
    expect(() => publicKeyFrom(raw.subarray(1).toString("base64"))).toThrow(
      "an Ed25519 public key is 32 bytes (base64) or PEM",
    );
    expect(() => publicKeyFrom(Buffer.concat([raw, Buffer.from([1])]).toString("base64"))).toThrow(
      "an Ed25519 public key is 32 bytes (base64) or PEM",
    );
  });
  it("carry a key id of 16 hex of SHA-256 over the raw key", () => {
    expect(keyIdOf(keys.publicKey)).toBe(
      createHash("sha256").update(rawPublicKey(keys.publicKey)).digest("hex").slice(0, 16),
    );
  });
  it("verify only with the signing key, the right key id and the exact note", () => {
    const { hashes } = log(3);
    const cp = checkpoint(hashes, 3);
    expect(verifyCheckpoint(cp, keys.publicKey)).toBe(true);
    expect(verifyCheckpoint(cp, otherKeys.publicKey)).toBe(false);
    expect(verifyCheckpoint({ ...cp, keyId: keyIdOf(otherKeys.publicKey) }, keys.publicKey)).toBe(false);
    expect(verifyCheckpoint({ ...cp, treeSize: 2 }, keys.publicKey)).toBe(false);
    expect(verifyCheckpoint({ ...cp, signature: "!!" }, keys.publicKey)).toBe(false);
    expect(verifyCheckpoint(null as unknown as SignedCheckpoint, keys.publicKey)).toBe(false);
  });
});

describe("verifyLog", () => {
  it("accepts a sound log with its checkpoints (the empty tree's included), from an async iterable too", async () => {
    const { rows, hashes } = log(5);
    const checkpoints = [checkpoint(hashes, 0), checkpoint(hashes, 3), checkpoint(hashes, 5)];
    expect(checkpoints[0]!.rootHash).toBe(EMPTY_ROOT);
    expect(await verifyLog(input({ leaves: rows, checkpoints, orphans: [] }))).toEqual({
      ok: true,
      leaves: 5,
      checkpoints: 3,
      purged: 0,
      legacy: 0,
    });
    async function* paged() {
      yield* rows;
    }
    expect(await verifyLog(input({ leaves: paged(), checkpoints }))).toMatchObject({ ok: true, leaves: 5 });
  });

  it("refuses a checkpoint signed by another key before reading any leaf", async () => {
    const { rows, hashes } = log(3);
    expect(
      await verifyLog(input({ leaves: rows, checkpoints: [checkpoint(hashes, 1), checkpoint(hashes, 3, otherKeys)] })),
    ).toEqual({
      ok: false,
      leaves: 0,
      brokenAtSeq: 2,
      eventId: null,
      problem: "checkpoint of size 3 is not signed by the audit key",
    });
  });

  it("refuses checkpoints that are not in strictly increasing size", async () => {
    const { rows, hashes } = log(3);
    for (const sizes of [
      [2, 2],
      [3, 1],
    ]) {
      expect(await verifyLog(input({ leaves: rows, checkpoints: sizes.map((s) => checkpoint(hashes, s)) }))).toEqual({
        ok: false,
        leaves: 0,
        brokenAtSeq: sizes[1]! - 1,
        eventId: null,
        problem: "checkpoints are not in increasing size",
      });
    }
    expect(
      await verifyLog(input({ leaves: rows, checkpoints: [1, 2, 3].map((s) => checkpoint(hashes, s)) })),
    ).toMatchObject({ ok: true, checkpoints: 3 });
  });

  it("refuses a signed root that the leaves do not rebuild, at its size (the empty tree too)", async () => {
    const { rows, hashes } = log(4);
    const forged = [...hashes];
    forged[1] = leafHash("forged");
    expect(
      await verifyLog(input({ leaves: rows, checkpoints: [checkpoint(hashes, 1), checkpoint(forged, 3)] })),
    ).toEqual({
      ok: false,
      leaves: 3,
      brokenAtSeq: 2,
      eventId: null,
      problem: "tree of size 3 does not match its signed checkpoint (history rewritten, reordered or deleted)",
    });
    expect(await verifyLog(input({ leaves: rows, checkpoints: [checkpoint([leafHash("x")], 0)] }))).toMatchObject({
      ok: true,
    });
    const badEmpty = { ...checkpoint([], 0), rootHash: leafHash("x") };
    const resigned = {
      ...badEmpty,
      signature: sign(null, Buffer.from(checkpointNote(badEmpty)), keys.privateKey).toString("base64"),
    };
    expect(await verifyLog(input({ leaves: rows, checkpoints: [resigned] }))).toEqual({
      ok: false,
      leaves: 0,
      brokenAtSeq: -1,
      eventId: null,
      problem: "tree of size 0 does not match its signed checkpoint (history rewritten, reordered or deleted)",
    });
  });

  it("names a missing or reordered leaf", async () => {
    const { rows } = log(4);
    expect(await verifyLog(input({ leaves: [rows[0]!, rows[2]!, rows[3]!] }))).toEqual({
      ok: false,
      leaves: 1,
      brokenAtSeq: 1,
      eventId: "e2",
      problem: "expected leaf 1: a leaf is missing or out of order",
    });
  });

  it("accepts a missing event only where a retention purge covers it", async () => {
    const { rows, hashes } = log(3);
    const gone = rows.map((r, i) => (i === 1 ? { ...r, event: null } : r));
    const calls: [Date, number][] = [];
    const purgedBefore = (at: Date, index: number) => {
      calls.push([at, index]);
      return true;
    };
    expect(await verifyLog(input({ leaves: gone, checkpoints: [checkpoint(hashes, 3)], purgedBefore }))).toEqual({
      ok: true,
      leaves: 3,
      checkpoints: 1,
      purged: 1,
      legacy: 0,
    });
    expect(calls).toEqual([[rows[1]!.occurredAt, 1]]);
    expect(await verifyLog(input({ leaves: gone }))).toEqual({
      ok: false,
      leaves: 1,
      brokenAtSeq: 1,
      eventId: "e1",
      problem: "event is missing (deleted outside a retention purge)",
    });
  });

  it("names an event whose stored hash or content no longer matches its leaf", async () => {
    const { rows } = log(3);
    const otherHash = rows.map((r, i) => (i === 2 ? { ...r, event: { ...r.event!, hash: leafHash("x") } } : r));
    expect(await verifyLog(input({ leaves: otherHash }))).toEqual({
      ok: false,
      leaves: 2,
      brokenAtSeq: 2,
      eventId: "e2",
      problem: "event hash differs from its leaf in the tree",
    });
    const edited = rows.map((r, i) => (i === 1 ? { ...r, event: { ...r.event!, data: { n: 99 } } } : r));
    expect(await verifyLog(input({ leaves: edited }))).toEqual({
      ok: false,
      leaves: 1,
      brokenAtSeq: 1,
      eventId: "e1",
      problem: "content does not match its leaf hash",
    });
  });

  // Legacy events keep their chain hash in AuditEvent.hash while their leaf is legacyLeafHash(chain hash)
  // (migration transparency_log): accepted and counted; one whose stored chain hash does not give its leaf is not.
  it("accepts a legacy (v2 chain) event whose leaf covers its stored chain hash", async () => {
    const { rows } = log(3);
    const chainHash = "c".repeat(64);
    const leaves = rows.map((r, i) =>
      i === 0 ? { ...r, leafHash: legacyLeafHash(chainHash), event: { ...r.event!, hash: chainHash } } : r,
    );
    expect(await verifyLog(input({ leaves }))).toEqual({ ok: true, leaves: 3, checkpoints: 0, purged: 0, legacy: 1 });
    const rewritten = leaves.map((r, i) => (i === 0 ? { ...r, event: { ...r.event!, hash: "d".repeat(64) } } : r));
    expect(await verifyLog(input({ leaves: rewritten }))).toMatchObject({
      ok: false,
      brokenAtSeq: 0,
      problem: "event hash differs from its leaf in the tree",
    });
  });

  it("refuses checkpoints beyond the last leaf (deleted leaves) and events outside the tree", async () => {
    const { rows, hashes } = log(5);
    expect(
      await verifyLog(input({ leaves: rows.slice(0, 3), checkpoints: [checkpoint(hashes, 2), checkpoint(hashes, 5)] })),
    ).toEqual({
      ok: false,
      leaves: 3,
      brokenAtSeq: 3,
      eventId: null,
      problem: "signed checkpoint of size 5 but only 3 leaves: leaves were deleted",
    });
    expect(await verifyLog(input({ leaves: rows, orphans: [{ id: "forged-1" }, { id: "forged-2" }] }))).toEqual({
      ok: false,
      leaves: 5,
      brokenAtSeq: 5,
      eventId: "forged-1",
      problem: "event is neither in the tree nor waiting for the sequencer (inserted outside the writer?)",
    });
  });
});

describe("divergenceFrom: may a tree follow a head the signer signed?", () => {
  const leaves = Array.from({ length: 7 }, (_, i) => leafHash(`leaf ${i}`));
  const head = (n: number) => ({ treeSize: n, rootHash: merkleRoot(leaves.slice(0, n)) });
  const get = getterOf(appendLeaves({ size: 0, nodes: [] }, leaves).created);
  it("the same head, or a larger tree with a valid consistency proof: none", () => {
    expect(divergenceFrom(head(5), head(5), null)).toBeNull();
    expect(divergenceFrom(head(5), head(7), consistencyProof(5, 7, get))).toBeNull();
    expect(divergenceFrom(head(0), head(7), [])).toBeNull();
  });
  it("one leaf fewer than signed is a truncated tail; the same size with another root a fork", () => {
    expect(divergenceFrom(head(5), head(4), null)).toBe(
      "tail truncated: a checkpoint of size 5 was signed but the log now holds 4 leaves",
    );
    expect(divergenceFrom(head(5), { treeSize: 5, rootHash: head(6).rootHash }, null)).toMatch(
      /^fork: a different tree of size 5/,
    );
  });
  it("a larger tree without a proof, or with one that does not verify: a fork", () => {
    expect(divergenceFrom(head(5), head(6), null)).toBe(
      "fork: the tree of size 6 does not extend the signed checkpoint of size 5",
    );
    expect(divergenceFrom(head(5), head(7), consistencyProof(4, 7, get))).toMatch(/^fork/);
    expect(divergenceFrom({ treeSize: 5, rootHash: head(4).rootHash }, head(7), consistencyProof(5, 7, get))).toMatch(
      /^fork/,
    );
  });
});

describe("rotation: checkpoints signed by a retired key", () => {
  const old = generateKeyPairSync("ed25519");
  const signWith = (k: typeof old, treeSize: number, root: Hex, issuedAt: string): SignedCheckpoint => {
    const cp = { logId: tenantId, treeSize, rootHash: root, issuedAt };
    return {
      ...cp,
      keyId: keyIdOf(k.publicKey),
      signature: sign(null, Buffer.from(checkpointNote(cp)), k.privateKey).toString("base64"),
    };
  };
  const rows = (n: number): LeafRow[] =>
    Array.from({ length: n }, (_, i) => {
      const e = { ...content(i), hash: "" };
      e.hash = auditLeafHash(e);
      return { leafIndex: i, leafHash: e.hash, eventId: e.id, occurredAt: e.occurredAt, event: e };
    });
  const hashes = rows(2).map((r) => r.leafHash);
  const input = (validUntil: string) => ({
    leaves: rows(2),
    checkpoints: [
      signWith(old, 1, merkleRoot(hashes.slice(0, 1)), "2026-01-01T00:00:00.000Z"),
      signWith(keys, 2, merkleRoot(hashes), "2026-02-01T00:00:00.000Z"),
    ],
    publicKey: keys.publicKey,
    purgedBefore: () => false,
    retiredKeys: [{ key: old.publicKey, validFrom: "2025-01-01T00:00:00Z", validUntil }],
  });
  it("within its validity: verified, and named as signed by the retired key", async () => {
    expect(await verifyLog(input("2026-01-15T00:00:00Z"))).toMatchObject({
      ok: true,
      signedByRetired: [keyIdOf(old.publicKey)],
    });
  });
  it("at the boundaries: issued exactly at the end of its validity counts, one millisecond later does not", async () => {
    expect(await verifyLog(input("2026-01-01T00:00:00.000Z"))).toMatchObject({ ok: true });
    expect(await verifyLog(input("2025-12-31T23:59:59.999Z"))).toMatchObject({ ok: false });
    const early = {
      ...input("2026-01-15T00:00:00Z"),
      retiredKeys: [{ key: old.publicKey, validFrom: "2026-01-01T00:00:00.001Z", validUntil: "2026-01-15T00:00:00Z" }],
    };
    expect(await verifyLog(early)).toMatchObject({ ok: false, problem: expect.stringMatching(/outside its validity/) });
  });
  it("after its validity ended: refused as such (not as tampering by an unknown key); unknown to the verifier: not signed", async () => {
    expect(await verifyLog(input("2025-12-31T23:59:59Z"))).toMatchObject({
      ok: false,
      problem: `checkpoint of size 1 is signed by retired key ${keyIdOf(old.publicKey)} (valid 2025-01-01T00:00:00Z – 2025-12-31T23:59:59Z) outside its validity (issued 2026-01-01T00:00:00.000Z)`,
    });
    expect(await verifyLog({ ...input("2026-01-15T00:00:00Z"), retiredKeys: [] })).toMatchObject({
      ok: false,
      problem: "checkpoint of size 1 is not signed by the audit key",
    });
  });
});
