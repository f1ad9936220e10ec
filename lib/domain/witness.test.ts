// The witness's add-checkpoint answers (c2sp.org/tlog-witness), one per rule, at the boundaries: the sizes
// it cosigned, proofs that do and do not verify, unknown origins and keys.
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { appendLeaves, consistencyProof, getterOf, leafHash, merkleRoot } from "./merkle";
import {
  SIG_COSIGNATURE_V1,
  SIG_ED25519,
  checkpointText,
  parseVkey,
  signNote,
  verifiedBy,
  vkeyOf,
} from "./signed-note";
import { addCheckpoint, cosigners, type WitnessRecord } from "./witness";

const log = generateKeyPairSync("ed25519");
const stranger = generateKeyPairSync("ed25519");
const w = generateKeyPairSync("ed25519");
const key = { name: "w.example", privateKey: w.privateKey, publicKey: w.publicKey };
const wv = parseVkey(vkeyOf("w.example", SIG_COSIGNATURE_V1, w.publicKey));
const trusted = [parseVkey(vkeyOf("host/audit", SIG_ED25519, log.publicKey))];
const origin = "host/audit/00000000-0000-4000-8000-000000000001";
const leaves = Array.from({ length: 9 }, (_, i) => leafHash(`l${i}`));
const get = getterOf(appendLeaves({ size: 0, nodes: [] }, leaves).created);
const root = (n: number) => merkleRoot(leaves.slice(0, n));
const b64 = (h: string) => Buffer.from(h, "hex").toString("base64");

function note(size: number, rootHash = root(size), o = origin, signer = log) {
  const text = checkpointText({ origin: o, treeSize: size, rootHash });
  return text + "\n" + signNote(text, "host/audit", signer.privateKey, signer.publicKey);
}
const body = (old: number, proof: string[], n: string) =>
  `old ${old}\n${proof.map((h) => `${b64(h)}\n`).join("")}\n${n}`;
const at = (records: Record<string, WitnessRecord>) => (o: string) => records[o] ?? null;
const now = new Date("2026-12-01T10:00:00Z");

describe("add-checkpoint", () => {
  it("first checkpoint (old 0): cosigned, with a cosignature/v1 line that verifies and a record to persist", () => {
    const a = addCheckpoint(body(0, [], note(5)), trusted, at({}), key, now);
    expect(a.status).toBe(200);
    expect(a.record).toMatchObject({ origin, value: { size: 5, rootHash: root(5) } });
    expect(verifiedBy(note(5) + a.body, wv)).toHaveLength(1);
    expect(cosigners(note(5) + a.body, [wv])).toEqual(["w.example"]);
  });
  const five = { [origin]: { size: 5, rootHash: root(5), note: "" } };
  it("from the cosigned size with a valid proof: cosigned; with the same size and root: cosigned again", () => {
    expect(addCheckpoint(body(5, consistencyProof(5, 9, get), note(9)), trusted, at(five), key, now).status).toBe(200);
    expect(addCheckpoint(body(5, [], note(5)), trusted, at(five), key, now).status).toBe(200);
  });
  it("old size other than the cosigned one: 409 with that size as text/x.tlog.size", () => {
    const a = addCheckpoint(body(4, consistencyProof(4, 9, get), note(9)), trusted, at(five), key, now);
    expect(a).toMatchObject({ status: 409, body: "5\n", contentType: "text/x.tlog.size" });
    expect(addCheckpoint(body(0, [], note(9)), trusted, at(five), key, now).body).toBe("5\n");
  });
  it("a smaller tree than cosigned (old > size): 400; the same size with another root: 422", () => {
    expect(addCheckpoint(body(5, [], note(4)), trusted, at(five), key, now).status).toBe(400);
    expect(addCheckpoint(body(5, [], note(5, root(6))), trusted, at(five), key, now).status).toBe(422);
  });
  it("a proof that does not verify, or a proof from the empty tree: 422 and nothing to persist", () => {
    const bad = addCheckpoint(body(5, consistencyProof(4, 9, get), note(9)), trusted, at(five), key, now);
    expect(bad.status).toBe(422);
    expect(bad.record).toBeUndefined();
    expect(addCheckpoint(body(0, [leaves[0]!], note(3)), trusted, at({}), key, now).status).toBe(422);
  });
  it("unknown origin: 404; signed by an untrusted key: 403; a trusted key's bad signature: 403; garbage: 400", () => {
    expect(addCheckpoint(body(0, [], note(3, root(3), "other/log")), trusted, at({}), key, now).status).toBe(404);
    expect(addCheckpoint(body(0, [], note(3, root(3), origin, stranger)), trusted, at({}), key, now).status).toBe(403);
    const forged = note(3).replace(`\n3\n`, `\n4\n`);
    expect(addCheckpoint(body(0, [], forged), trusted, at({}), key, now).status).toBe(403);
    expect(addCheckpoint("hello", trusted, at({}), key, now).status).toBe(400);
    expect(addCheckpoint(`old 01\n\n${note(3)}`, trusted, at({}), key, now).status).toBe(400);
  });
});
