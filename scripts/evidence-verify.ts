// npm run evidence:verify -- FILE --public-key KEY [--policy POLICY_FILE] — checks an evidence pack offline
// (no database, no network): canonical form, pack digest, proposal hash, the checkpoint's Ed25519 signature
// with the log's key, each event's leaf hash and RFC 9162 inclusion proof, approvals and passkey signatures,
// execution links; for a v3 pack, its C2SP checkpoint (same size and root, signed by the log key) and — with
// --policy — the witness cosignatures against the auditor's pinned policy (lib/domain/witness-policy.ts:
// `witness <vkey>` lines and `quorum <N>`; an unknown or forged cosignature, or too few, fail).
// KEY is the log's public key as base64 (32 raw bytes) or PEM, or a file holding either, the JSON of
// GET /api/audit/public-key, or the JSON of GET /api/audit/public-keys (the current key and the retired keys
// with their validity: a pack signed by a retired key within its period verifies, and says so); AUDIT_PUBLIC_KEY
// works too. Get the key and the policy independently of the pack (they are the trust anchors).
// Exit 0 when every check passes, 1 when one fails, 2 on usage errors.
import { existsSync, readFileSync } from "node:fs";
import type { KeyObject } from "node:crypto";
import { keysFromPublished, publicKeyFrom, type RetiredKey } from "../lib/domain/audit-log";
import { verifyEvidencePack } from "../lib/domain/evidence-pack";
import { parseWitnessPolicy, type WitnessPolicy } from "../lib/domain/witness-policy";

const args = process.argv.slice(2);
const valueOf = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const valued = new Set(["--public-key", "--policy"].map((n) => args.indexOf(n) + 1).filter((i) => i > 0));
const keyArg = valueOf("--public-key") ?? process.env.AUDIT_PUBLIC_KEY;
const policyArg = valueOf("--policy");
const file = args.find((a, i) => !a.startsWith("--") && !valued.has(i));
const usage = (why?: string): never => {
  if (why) console.error(why);
  console.error(
    "usage: npm run evidence:verify -- FILE --public-key KEY|KEYFILE [--policy POLICY_FILE]   (or AUDIT_PUBLIC_KEY=KEY)",
  );
  process.exit(2);
};
if (!file) usage();

function readKeys(arg: string | undefined): { current: KeyObject | null; retired: RetiredKey[] } {
  if (!arg) return { current: null, retired: [] };
  const text = existsSync(arg) ? readFileSync(arg, "utf8") : arg;
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: base64 or PEM
  }
  try {
    if (Array.isArray((json as { keys?: unknown })?.keys)) return keysFromPublished(json);
    const single = (json as { publicKey?: unknown })?.publicKey;
    return { current: publicKeyFrom(typeof single === "string" ? single : text), retired: [] };
  } catch (error) {
    return usage(`--public-key: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function readPolicy(path: string | undefined): WitnessPolicy | null {
  if (path === undefined) return null;
  try {
    return parseWitnessPolicy(readFileSync(path, "utf8"));
  } catch (error) {
    return usage(`--policy ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

let text = "";
try {
  text = readFileSync(file!, "utf8");
} catch (error) {
  usage(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
}
const keys = readKeys(keyArg);
const policy = readPolicy(policyArg);
const verdict = await verifyEvidencePack(text, { publicKey: keys.current, retiredKeys: keys.retired, policy });
for (const c of verdict.checks) {
  const mark = !c.ok ? "FAIL" : c.skipped ? "skip" : "ok  ";
  const note = !c.ok || c.skipped ? c.detail : c.info;
  console.log(`${mark} ${c.name}${note ? ` — ${note}` : ""}`);
}
const skipped = verdict.checks.filter((c) => c.skipped).map((c) => c.name);
console.log(
  verdict.ok
    ? `evidence pack VERIFIED${skipped.length ? ` (not checked: ${skipped.join(", ")})` : ""}`
    : "evidence pack FAILED verification",
);
process.exit(verdict.ok ? 0 : 1);
