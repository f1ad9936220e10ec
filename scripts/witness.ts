// npm run witness -- --name NAME --port P --state FILE [--log-vkey VKEY …] [--host 127.0.0.1]
//
// A small c2sp.org/tlog-witness server for a tenant's auditor or a partner to run on their own machine
// (docs/audit.md "Witnesses"). It keeps its own Ed25519 key and, per log origin, the last checkpoint it
// cosigned in FILE (created on first run, readable by its owner only). It cosigns (cosignature/v1) a
// checkpoint signed by a trusted log key only when a consistency proof shows it extends what it cosigned
// before — so a log cut short or re-signed with another history is refused (409 / 422).
//
// --log-vkey: the log's vkey from GET /api/audit/public-keys (repeatable; kept in FILE, so later runs need
// none). A key named "<host>/audit" speaks for the origins "<host>/audit/<logId>".
// First stdout line: {"vkey": "<name>+<key id>+<base64(0x04 ‖ key)>"} — give it to the tenant's admin.
// Endpoints: POST /add-checkpoint; GET /<sha256 hex of origin>/checkpoint (the last cosigned checkpoint).
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { SIG_COSIGNATURE_V1, ed25519FromSeed, parseVkey, validKeyName, vkeyOf } from "../lib/domain/signed-note";
import { addCheckpoint, type WitnessRecord } from "../lib/domain/witness";

const argv = process.argv.slice(2);
const flag = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const flags = (name: string) => argv.flatMap((a, i) => (a === `--${name}` && argv[i + 1] ? [argv[i + 1]!] : []));
const name = flag("name");
const port = Number(flag("port"));
const stateFile = flag("state");
if (!name || !validKeyName(name) || !Number.isInteger(port) || port < 0 || port > 65535 || !stateFile) {
  console.error("usage: npm run witness -- --name NAME --port P --state FILE [--log-vkey VKEY …] [--host 127.0.0.1]");
  process.exit(2);
}

type State = { name: string; seed: string; logVkeys: string[]; logs: Record<string, WitnessRecord> };
let state: State;
if (existsSync(stateFile)) {
  state = JSON.parse(readFileSync(stateFile, "utf8")) as State;
  if (state.name !== name) {
    console.error(`${stateFile} belongs to witness ${state.name}, not ${name}`);
    process.exit(2);
  }
} else state = { name, seed: randomBytes(32).toString("base64"), logVkeys: [], logs: {} };
for (const v of flags("log-vkey")) if (!state.logVkeys.includes(v)) state.logVkeys.push(v);
const trusted = state.logVkeys.map((v) => parseVkey(v));

const save = () => {
  const tmp = `${stateFile}.tmp`;
  writeFileSync(tmp, JSON.stringify(state, null, 2) + "\n", { mode: 0o600 });
  renameSync(tmp, stateFile);
};
save();

const { privateKey, publicKey } = ed25519FromSeed(Buffer.from(state.seed, "base64"));
console.log(JSON.stringify({ vkey: vkeyOf(name, SIG_COSIGNATURE_V1, publicKey) }));

// One request at a time: checking the old size and recording the new checkpoint are one step (the
// specification's rollback race).
let queue: Promise<unknown> = Promise.resolve();
const MAX_BODY = 64 * 1024;

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://witness");
  const get = /^\/([0-9a-f]{64})\/checkpoint$/.exec(url.pathname);
  if (req.method === "GET" && get) {
    const rec = Object.entries(state.logs).find(
      ([origin]) => createHash("sha256").update(origin).digest("hex") === get[1],
    );
    res
      .writeHead(rec ? 200 : 404, { "content-type": "text/plain; charset=utf-8" })
      .end(rec ? rec[1].note : "never cosigned\n");
    return;
  }
  if (req.method !== "POST" || url.pathname !== "/add-checkpoint") {
    res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  req.on("data", (c: Buffer) => {
    size += c.length;
    if (size > MAX_BODY) {
      res.writeHead(413, { "content-type": "text/plain" }).end("too large\n");
      req.destroy();
    } else chunks.push(c);
  });
  req.on("end", () => {
    if (size > MAX_BODY) return;
    queue = queue.then(() => {
      const answer = addCheckpoint(
        Buffer.concat(chunks).toString("utf8"),
        trusted,
        (origin) => state.logs[origin] ?? null,
        { name, privateKey, publicKey },
        new Date(),
      );
      if (answer.record) {
        state.logs[answer.record.origin] = answer.record.value;
        save(); // persisted before the answer
      }
      console.log(
        JSON.stringify({ at: new Date().toISOString(), status: answer.status, size: answer.record?.value.size }),
      );
      res.writeHead(answer.status, { "content-type": answer.contentType }).end(answer.body);
    });
  });
});
server.listen(port, flag("host") ?? "127.0.0.1");
const stop = () => server.close(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
