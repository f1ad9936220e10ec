// npm run audit:monitor -- --url https://HOST/api/audit/logs/LOG_ID --state FILE [--vkey LOG_VKEY]
//                          [--witness WITNESS_VKEY … --quorum N]
//
// A monitor for one tenant's audit log, cron-friendly (docs/audit.md "Monitoring"): fetches the newest C2SP
// checkpoint (<url>/checkpoint), checks the log's signature with the pinned vkey, and — from the checkpoint
// it kept in FILE last time — the consistency proof the log serves (<url>/consistency?from=&to=). With
// --witness keys and --quorum, counts valid cosignatures. Keeps the new checkpoint in FILE.
// The first run pins --vkey (and the witnesses) in FILE; later runs need only --url and --state.
// Exit 0 consistent · 1 fork or shrink (the log showed another history) · 2 unknown key / bad signature ·
// 3 quorum not met · 4 cannot run (network, usage). One line of output either way.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { verifyConsistency } from "../lib/domain/merkle";
import { divergenceFrom } from "../lib/domain/audit-log";
import { parseCheckpointText, parseNote, parseVkey, verifiedBy } from "../lib/domain/signed-note";
import { cosigners } from "../lib/domain/witness";

const argv = process.argv.slice(2);
const flag = (name: string) => ((i) => (i >= 0 ? argv[i + 1] : undefined))(argv.indexOf(`--${name}`));
const flags = (name: string) => argv.flatMap((a, i) => (a === `--${name}` && argv[i + 1] ? [argv[i + 1]!] : []));
const url = flag("url")?.replace(/\/+(checkpoint)?$/, "");
const stateFile = flag("state");
const done = (code: number, message: string): never => {
  (code === 0 ? console.log : console.error)(
    `audit:monitor ${["OK", "FORK", "UNKNOWN KEY", "NO QUORUM", "ERROR"][code]}: ${message}`,
  );
  process.exit(code);
};
if (!url || !stateFile)
  done(4, "usage: --url https://HOST/api/audit/logs/LOG_ID --state FILE [--vkey VKEY] [--witness VKEY … --quorum N]");

type State = {
  vkeys: string[];
  witnesses: string[];
  quorum: number;
  last: { size: number; rootHash: string; note: string } | null;
};
const state: State = existsSync(stateFile!)
  ? (JSON.parse(readFileSync(stateFile!, "utf8")) as State)
  : { vkeys: [], witnesses: [], quorum: 0, last: null };
for (const v of flags("vkey")) if (!state.vkeys.includes(v)) state.vkeys.push(v);
for (const v of flags("witness")) if (!state.witnesses.includes(v)) state.witnesses.push(v);
if (flag("quorum")) state.quorum = Number(flag("quorum"));
if (state.vkeys.length === 0)
  done(4, "no log vkey pinned: pass --vkey (from GET /api/audit/public-keys, checked out of band)");

async function get(path: string): Promise<string> {
  const res = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(15_000) });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return res.text();
}

try {
  const note = await get("/checkpoint");
  let signed = 0;
  try {
    for (const k of state.vkeys.map((v) => parseVkey(v))) signed += verifiedBy(note, k).length;
  } catch (error) {
    done(2, `a signature of a pinned key does not verify: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (signed === 0) done(2, "the checkpoint is not signed by a pinned log key (an unknown key)");
  const cp = parseCheckpointText(parseNote(note).text);
  const last = state.last;
  if (last && cp.treeSize !== last.size) {
    const proof =
      cp.treeSize > last.size
        ? (await get(`/consistency?from=${last.size}&to=${cp.treeSize}`)).split("\n").filter(Boolean)
        : null;
    const hex = proof?.map((h) => Buffer.from(h, "base64").toString("hex")) ?? null;
    const problem = divergenceFrom({ treeSize: last.size, rootHash: last.rootHash }, cp, hex);
    if (problem || (hex && !verifyConsistency(last.size, cp.treeSize, last.rootHash, cp.rootHash, hex)))
      done(1, `${problem ?? "fork"} (kept size ${last.size}, now ${cp.treeSize})`);
  } else if (last && cp.rootHash !== last.rootHash)
    done(1, divergenceFrom({ treeSize: last.size, rootHash: last.rootHash }, cp, null)!);
  const names = cosigners(
    note,
    state.witnesses.map((v) => parseVkey(v)),
  );
  state.last = { size: cp.treeSize, rootHash: cp.rootHash, note };
  const tmp = `${stateFile}.tmp`;
  writeFileSync(tmp, JSON.stringify(state, null, 2) + "\n", { mode: 0o600 });
  renameSync(tmp, stateFile!);
  if (names.length < state.quorum)
    done(
      3,
      `size ${cp.treeSize}: ${names.length} of ${state.quorum} witness cosignatures (${names.join(", ") || "none"})`,
    );
  done(
    0,
    `size ${cp.treeSize}, consistent with ${last ? `size ${last.size}` : "nothing kept yet (first run)"}; cosigned by ${names.join(", ") || "no witness"}`,
  );
} catch (error) {
  done(4, error instanceof Error ? error.message : String(error));
}
