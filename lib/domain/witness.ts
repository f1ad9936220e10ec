// The witness side of c2sp.org/tlog-witness `add-checkpoint`, as pure code (`npm run witness` serves it):
// given what the witness cosigned per origin, a request body and the log keys it trusts, the answer and the
// new record. A witness never cosigns a checkpoint inconsistent with one it cosigned: that is what lets a
// tenant's auditor or a partner, running it on their own machine, catch a log that shows two histories.
import type { KeyObject } from "node:crypto";
import { EMPTY_ROOT, verifyConsistency } from "./merkle";
import { checkpointText, cosign, parseCheckpointText, parseNote, verifiedBy, type Vkey } from "./signed-note";

export type WitnessRecord = { size: number; rootHash: string; note: string };
export type WitnessKey = { name: string; privateKey: KeyObject; publicKey: KeyObject };
export type WitnessAnswer = {
  status: number;
  contentType: string;
  body: string;
  record?: { origin: string; value: WitnessRecord };
};

const text = (status: number, body: string, contentType = "text/plain; charset=utf-8"): WitnessAnswer => ({
  status,
  contentType,
  body,
});

/** The log keys that speak for an origin: a key named N signs the origins "N/…" (and N itself). */
export const keysFor = (origin: string, trusted: readonly Vkey[]) =>
  trusted.filter((k) => origin === k.name || origin.startsWith(`${k.name}/`));

/**
 * Handles one add-checkpoint body. `known(origin)` is the record of the last checkpoint cosigned for that
 * origin (null: never). Status codes per the specification: 400 malformed or old > size, 404 unknown
 * origin, 403 no valid signature of a trusted key, 409 old size ≠ the cosigned size (body: that size,
 * text/x.tlog.size), 422 a proof that does not verify (or a root that differs at the same size). The caller
 * persists `record` before answering and serializes calls (check and update are one step).
 */
export function addCheckpoint(
  body: string,
  trusted: readonly Vkey[],
  known: (origin: string) => WitnessRecord | null,
  key: WitnessKey,
  now: Date,
): WitnessAnswer {
  const split = body.indexOf("\n\n");
  if (split < 0) return text(400, "expected an old size line, proof lines, a blank line and a checkpoint\n");
  const head = body.slice(0, split).split("\n");
  const m = /^old (0|[1-9][0-9]{0,15})$/.exec(head[0] ?? "");
  if (!m) return text(400, "the first line must be `old <size>`\n");
  const old = Number(m[1]);
  const proofLines = head.slice(1);
  if (proofLines.length > 63) return text(400, "at most 63 proof lines\n");
  const proof: string[] = [];
  for (const line of proofLines) {
    const h = Buffer.from(line, "base64");
    if (h.length !== 32 || h.toString("base64") !== line) return text(400, "a proof line is one base64 SHA-256 hash\n");
    proof.push(h.toString("hex"));
  }
  const note = body.slice(split + 2);
  let cp;
  try {
    cp = parseCheckpointText(parseNote(note).text);
  } catch (error) {
    return text(400, `${error instanceof Error ? error.message : String(error)}\n`);
  }
  const keys = keysFor(cp.origin, trusted);
  if (keys.length === 0) return text(404, "unknown log origin\n");
  try {
    if (keys.every((k) => verifiedBy(note, k).length === 0)) return text(403, "no signature of a trusted log key\n");
  } catch {
    return text(403, "a signature of a trusted log key does not verify\n");
  }
  if (old > cp.treeSize) return text(400, "the old size is larger than the checkpoint's\n");
  const record = known(cp.origin);
  const cosigned = record?.size ?? 0;
  if (old !== cosigned) return text(409, `${cosigned}\n`, "text/x.tlog.size");
  if (cp.treeSize === 0 && cp.rootHash !== EMPTY_ROOT) return text(422, "an empty tree has the empty root\n");
  if (old === 0 && proof.length > 0) return text(422, "no proof from the empty tree\n");
  if (record && old === cp.treeSize && record.rootHash !== cp.rootHash)
    return text(422, "another root at the size already cosigned\n");
  if (record && old > 0 && !verifyConsistency(old, cp.treeSize, record.rootHash, cp.rootHash, proof))
    return text(422, "the consistency proof does not verify\n");
  const line = cosign(checkpointText(cp), key.name, key.privateKey, key.publicKey, Math.floor(now.getTime() / 1000));
  return {
    ...text(200, line),
    record: { origin: cp.origin, value: { size: cp.treeSize, rootHash: cp.rootHash, note: note + line } },
  };
}

/** The witnesses (of `vkeys`) whose cosignature on `note` verifies: what a quorum is counted from. */
export function cosigners(note: string, vkeys: readonly Vkey[]): string[] {
  return vkeys
    .filter((k) => {
      try {
        return verifiedBy(note, k).length > 0;
      } catch {
        return false; // a cosignature of that key that does not verify counts for nothing
      }
    })
    .map((k) => k.name);
}
