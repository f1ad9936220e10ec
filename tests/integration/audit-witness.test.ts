// Witnesses (c2sp.org/tlog-witness): two real `npm run witness` processes with their own keys and state
// files; the sequencer's submission stores their cosignatures and serves them appended to the checkpoint
// (quorum 2). Then the tail-truncation attack by someone holding the database *and* the key (the signer's
// memory wiped too): the log signs a second history, and both witnesses refuse to cosign it; health says so.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { integratePending } from "@/lib/server/audit/sequencer";
import { submitToWitnesses } from "@/lib/server/audit/submit-to-witnesses";
import { getCheckpointNote } from "@/lib/server/audit/get-checkpoint-note";
import { checkHealth } from "@/lib/server/health/check-health";
import { auditVkey } from "@/lib/server/audit/signing-key";
import { cosigners } from "@/lib/domain/witness";
import { parseCheckpointText, parseNote, parseVkey } from "@/lib/domain/signed-note";
import { GET as checkpointGET } from "@/app/api/audit/logs/[logId]/checkpoint/route";
import { GET as consistencyGET } from "@/app/api/audit/logs/[logId]/consistency/route";
import { ES, ana, anthropicCall, freshTrace, headersFor, send, tokenFor } from "./gateway-support";
import { truncateLogTail } from "./audit-support";
import { startWitness as startRunningWitness, type RunningWitness } from "../support/witness";

const stateDir = mkdtempSync(join(tmpdir(), "audit-signer-"));
process.env.AUDIT_SIGNER_STATE_DIR = stateDir;
const dir = mkdtempSync(join(tmpdir(), "witnesses-"));

type W = RunningWitness;
const witnesses: W[] = [];
const startWitness = (name: string) => startRunningWitness(name, dir, [auditVkey()]);

let es = "";
async function calls(n: number) {
  const token = await tokenFor(ES, ana);
  for (let i = 0; i < n; i++) {
    await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ token, trace: freshTrace() }));
    await integratePending();
  }
}
// The log's public routes over real HTTP, for the monitor (a separate process, as from cron).
let base = "";
const server = createServer((req, res) => {
  const m = /^\/api\/audit\/logs\/([^/]+)\/(checkpoint|consistency)/.exec(req.url ?? "");
  const handler = m?.[2] === "checkpoint" ? checkpointGET : consistencyGET;
  void handler(new Request(`http://localhost:3000${req.url}`), {
    params: Promise.resolve({ logId: m?.[1] ?? "" }),
  }).then(async (r) => {
    res.writeHead(r.status, { "content-type": r.headers.get("content-type") ?? "text/plain" }).end(await r.text());
  });
});
const monitorState = join(dir, "monitor.json");
function monitor(...extra: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [
    "--import",
    "tsx",
    "scripts/audit-monitor.ts",
    "--url",
    `${base}/api/audit/logs/${es}`,
    "--state",
    monitorState,
    ...extra,
  ]);
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, out })));
}

const quorumOf = async () =>
  cosigners(
    await getCheckpointNote(es),
    witnesses.map((w) => parseVkey(w.vkey)),
  );
const sizeOf = (note: string) => parseCheckpointText(parseNote(note).text).treeSize;

beforeAll(async () => {
  es = (await db().tenant.findUniqueOrThrow({ where: { slug: ES } })).id;
  witnesses.push(await startWitness("w1.example"), await startWitness("w2.example"));
  for (const w of witnesses)
    await db().auditWitness.create({ data: { tenantId: es, name: w.name, vkey: w.vkey, url: w.url } });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(() => {
  server.close();
  for (const w of witnesses) w.child.kill("SIGTERM");
});

describe("witnesses cosign the tenant log", () => {
  it("each witness prints its cosignature vkey first; both cosign: the served checkpoint carries a quorum of 2", async () => {
    expect(witnesses.map((w) => w.vkey)).toEqual([
      expect.stringMatching(/^w1\.example\+[0-9a-f]{8}\+B[A-Za-z0-9+/]{43}$/),
      expect.stringMatching(/^w2\.example\+[0-9a-f]{8}\+B[A-Za-z0-9+/]{43}$/),
    ]);
    await calls(2);
    expect(await submitToWitnesses(es)).toEqual({ cosigned: 2, failed: 0 });
    expect(await quorumOf()).toEqual(["w1.example", "w2.example"]);
    await calls(2);
    expect(await submitToWitnesses(es)).toEqual({ cosigned: 2, failed: 0 });
    const note = await getCheckpointNote(es);
    expect(await quorumOf()).toHaveLength(2);
    const rows = await db().auditWitness.findMany({ where: { tenantId: es } });
    expect(rows.map((r) => r.cosignedSize)).toEqual([sizeOf(note), sizeOf(note)]);
    expect((await checkHealth()).checks.auditWitnesses).toBe("ok");
  });

  it("audit:monitor pins the log and witness keys, checks consistency from what it kept and the quorum", async () => {
    const first = await monitor(
      "--vkey",
      auditVkey(),
      ...witnesses.flatMap((w) => ["--witness", w.vkey]),
      "--quorum",
      "2",
    );
    expect(first).toMatchObject({
      code: 0,
      out: expect.stringMatching(
        /^audit:monitor OK: size \d+, consistent with nothing kept yet \(first run\); cosigned by w1.example, w2.example\n$/,
      ),
    });
    await calls(1);
    expect((await monitor()).code).toBe(3); // signed, not yet cosigned: quorum not met
    await submitToWitnesses(es);
    expect(await monitor()).toMatchObject({
      code: 0,
      out: expect.stringMatching(/consistent with size \d+; cosigned by w1.example, w2.example/),
    });
    const other = join(dir, "unknown-key.json");
    const unknown = spawn(process.execPath, [
      "--import",
      "tsx",
      "scripts/audit-monitor.ts",
      "--url",
      `${base}/api/audit/logs/${es}`,
      "--state",
      other,
      "--vkey",
      witnesses[0]!.vkey.replace("w1.example", "localhost:3000/audit"),
    ]);
    const code = await new Promise((r) => unknown.on("exit", r));
    expect(code).not.toBe(0);
  });

  it("a stale idea of a witness's size is resynchronised from its 409", async () => {
    await db().auditWitness.updateMany({ where: { tenantId: es, name: "w1.example" }, data: { cosignedSize: 1 } });
    await calls(1);
    expect(await submitToWitnesses(es)).toEqual({ cosigned: 2, failed: 0 });
    expect(await quorumOf()).toHaveLength(2);
  });

  it("the tail truncated by someone holding the database and the key: the log re-signs, both witnesses refuse, health says so", async () => {
    const before = await getCheckpointNote(es);
    const sizes = (
      await db().auditSignedCheckpoint.findMany({ where: { logId: es }, orderBy: { treeSize: "asc" } })
    ).map((c) => c.treeSize);
    await truncateLogTail(es, sizes.at(-3)!);
    rmSync(stateDir, { recursive: true, force: true }); // the signer's memory gone as well
    await calls(1); // the log signs a second history over sizes it signed before
    const forged = await getCheckpointNote(es);
    expect(sizeOf(forged)).toBeLessThanOrEqual(sizeOf(before));
    expect(await submitToWitnesses(es)).toEqual({ cosigned: 0, failed: 2 });
    expect(await quorumOf()).toEqual([]);
    const rows = await db().auditWitness.findMany({ where: { tenantId: es }, orderBy: { name: "asc" } });
    for (const r of rows) {
      expect(r.cosignedSize).toBe(sizeOf(before));
      expect(r.lastError).toMatch(/^(400|422) /);
    }
    const health = await checkHealth();
    expect(health.checks.auditWitnesses).toBe("refusing");
    expect(health.status).toBe("degraded");
    expect(await monitor()).toMatchObject({
      code: 1,
      out: expect.stringMatching(/^audit:monitor FORK: (tail truncated|fork)/),
    });
  });
});
