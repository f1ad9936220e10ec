// The witness policy an auditor pins (docs/audit.md "The pinned witness policy"), and the check of a cosigned
// checkpoint against it, as pure code: `npm run evidence:verify -- --policy FILE` and the admin page's
// policy download use it. The file is the auditor's, kept apart from what the operator serves: a pack or a
// served checkpoint can carry any cosignature lines it likes, only the policy says whose count.
//
//   # comment lines and blank lines are ignored
//   witness <vkey>        one per witness: its cosignature/v1 vkey (name+key id+base64(0x04 ‖ key))
//   quorum <N>            how many of those witnesses must have cosigned (0 … number of witnesses)
import { SIG_COSIGNATURE_V1, parseNote, parseVkey, verifiedBy, type Vkey } from "./signed-note";

export type WitnessPolicy = { witnesses: Vkey[]; quorum: number };

/** Reads a policy file; throws naming the line that is wrong. */
export function parseWitnessPolicy(text: string): WitnessPolicy {
  const witnesses: Vkey[] = [];
  let quorum: number | null = null;
  for (const [i, raw] of text.split("\n").entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const where = `policy line ${i + 1}`;
    const [word, value, ...rest] = line.split(/\s+/);
    if (rest.length > 0 || value === undefined) throw new Error(`${where}: expected "witness <vkey>" or "quorum <N>"`);
    if (word === "witness") {
      let key: Vkey;
      try {
        key = parseVkey(value);
      } catch (error) {
        throw new Error(`${where}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
      if (key.type !== SIG_COSIGNATURE_V1)
        throw new Error(`${where}: a witness key is a cosignature/v1 vkey (type 0x04)`);
      if (witnesses.some((w) => w.name === key.name)) throw new Error(`${where}: witness ${key.name} is listed twice`);
      witnesses.push(key);
    } else if (word === "quorum") {
      if (quorum !== null) throw new Error(`${where}: quorum is given twice`);
      if (!/^(0|[1-9][0-9]{0,3})$/.test(value)) throw new Error(`${where}: the quorum is a whole number`);
      quorum = Number(value);
    } else throw new Error(`${where}: unknown keyword ${JSON.stringify(word)}`);
  }
  if (quorum === null) throw new Error("the policy has no quorum line");
  if (quorum > witnesses.length)
    throw new Error(`quorum ${quorum} is more than the ${witnesses.length} witness(es) listed`);
  return { witnesses, quorum };
}

/** The policy file for a witness list and quorum (what the admin page offers to download). */
export function formatWitnessPolicy(witnesses: readonly { vkey: string }[], quorum: number, comment?: string): string {
  return [
    ...(comment ? [`# ${comment}`] : []),
    ...witnesses.map((w) => `witness ${w.vkey}`),
    `quorum ${quorum}`,
    "",
  ].join("\n");
}

export type QuorumVerdict = { ok: true; cosigners: string[] } | { ok: false; problem: string; cosigners: string[] };

/**
 * Checks a cosigned checkpoint note against a policy. Every signature line is either the log's (named
 * `logKeyName`; the log's signature is checked elsewhere, with the log's key) or a cosignature of a policy
 * witness that verifies; a line of any other name or key id is refused (an unknown cosignature), and so is a
 * witness's line that does not verify (a forged one). Then the distinct witnesses must reach the quorum.
 */
export function checkQuorum(note: string, logKeyName: string, policy: WitnessPolicy): QuorumVerdict {
  const cosigners: string[] = [];
  let signatures;
  try {
    signatures = parseNote(note).signatures;
  } catch (error) {
    return { ok: false, problem: error instanceof Error ? error.message : String(error), cosigners };
  }
  for (const s of signatures) {
    if (s.name === logKeyName) continue;
    const key = policy.witnesses.find((w) => w.name === s.name && w.keyId.equals(s.keyId));
    if (!key)
      return {
        ok: false,
        problem: `unknown cosignature by ${s.name} (key id ${s.keyId.toString("hex")}): not a witness of the pinned policy`,
        cosigners,
      };
  }
  for (const key of policy.witnesses) {
    try {
      if (verifiedBy(note, key).length > 0) cosigners.push(key.name);
    } catch {
      return { ok: false, problem: `the cosignature of ${key.name} does not verify (forged or altered)`, cosigners };
    }
  }
  if (cosigners.length < policy.quorum)
    return {
      ok: false,
      problem: `${cosigners.length} of the ${policy.quorum} witness cosignatures the policy requires (${cosigners.join(", ") || "none"})`,
      cosigners,
    };
  return { ok: true, cosigners };
}
