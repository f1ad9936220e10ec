// npm run evidence:verify -- FILE --public-key KEY — checks an evidence pack offline (no database, no
// network): canonical form, pack digest, proposal hash, the checkpoint's Ed25519 signature with the log's
// public key, each event's leaf hash and RFC 9162 inclusion proof, approvals and passkey signatures,
// execution links. KEY is the log's public key as base64 (32 raw bytes) or PEM, or a file holding either or
// the JSON of GET /api/audit/public-key; AUDIT_PUBLIC_KEY works too. Get the key independently of the pack
// (it is the trust anchor). Exit 0 when every check passes, 1 when one fails, 2 on usage errors.
import { existsSync, readFileSync } from "node:fs";
import { verifyEvidencePack } from "../lib/domain/evidence-pack";

const args = process.argv.slice(2);
const at = args.indexOf("--public-key");
const keyArg = at >= 0 ? args[at + 1] : process.env.AUDIT_PUBLIC_KEY;
const file = args.find((a, i) => !a.startsWith("--") && (at < 0 || i !== at + 1));
if (!file) {
  console.error("usage: npm run evidence:verify -- FILE --public-key KEY|KEYFILE   (or AUDIT_PUBLIC_KEY=KEY)");
  process.exit(2);
}

function readKey(arg: string | undefined): string | null {
  if (!arg) return null;
  const text = existsSync(arg) ? readFileSync(arg, "utf8") : arg;
  try {
    const json = JSON.parse(text) as { publicKey?: unknown };
    if (typeof json?.publicKey === "string") return json.publicKey;
  } catch {
    // not JSON: base64 or PEM
  }
  return text.trim();
}

let text: string;
try {
  text = readFileSync(file, "utf8");
} catch (error) {
  console.error(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
const verdict = await verifyEvidencePack(text, { publicKey: readKey(keyArg) });
for (const c of verdict.checks) console.log(`${c.ok ? "ok  " : "FAIL"} ${c.name}${c.detail && !c.ok ? ` — ${c.detail}` : ""}`);
console.log(verdict.ok ? "evidence pack VERIFIED" : "evidence pack FAILED verification");
process.exit(verdict.ok ? 0 : 1);
