// npm run evidence:verify FILE — checks an evidence pack offline (no database, no network): canonical form,
// pack digest, proposal hash, chain segment, events, approvals and passkey signatures, execution links.
// Exit 0 when every check passes, 1 when one fails, 2 on usage errors.
import { readFileSync } from "node:fs";
import { verifyEvidencePack } from "../lib/domain/evidence-pack";

const file = process.argv[2];
if (!file) {
  console.error("usage: npm run evidence:verify -- FILE");
  process.exit(2);
}
let text: string;
try {
  text = readFileSync(file, "utf8");
} catch (error) {
  console.error(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
const verdict = await verifyEvidencePack(text);
for (const c of verdict.checks) console.log(`${c.ok ? "ok  " : "FAIL"} ${c.name}${c.detail && !c.ok ? ` — ${c.detail}` : ""}`);
console.log(verdict.ok ? "evidence pack VERIFIED" : "evidence pack FAILED verification");
process.exit(verdict.ok ? 0 : 1);
