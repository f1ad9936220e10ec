// C2SP checkpoints served by the real route handlers, checked by our verifier and by one we did not write:
// Go's golang.org/x/mod/sumdb/note from Debian (built offline here, GO111MODULE=off). The test fails — it
// does not skip — when go is missing: CI installs golang-go and golang-golang-x-mod-dev.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { integratePending } from "@/lib/server/audit/sequencer";
import { verifyConsistency, verifyInclusion } from "@/lib/domain/merkle";
import { parseCheckpointText, parseNote, parseVkey, verifiedBy } from "@/lib/domain/signed-note";
import { GET as checkpointGET } from "@/app/api/audit/logs/[logId]/checkpoint/route";
import { GET as consistencyGET } from "@/app/api/audit/logs/[logId]/consistency/route";
import { GET as inclusionGET } from "@/app/api/audit/logs/[logId]/inclusion/route";
import { GET as publicKeysGET } from "@/app/api/audit/public-keys/route";
import { GET as oldCheckpointKeyGET } from "@/app/api/audit/public-key/route";
import { ES, ana, anthropicCall, freshTrace, headersFor, send, tokenFor } from "./gateway-support";

process.env.AUDIT_SIGNER_STATE_DIR = mkdtempSync(join(tmpdir(), "audit-signer-"));

const call = <C>(handler: (r: Request, c: C) => Promise<Response>, path: string, ctx: C) =>
  handler(new Request(`http://localhost:3000${path}`), ctx);
const params = (logId: string) => ({ params: Promise.resolve({ logId }) });
const hex = (b64: string) => Buffer.from(b64, "base64").toString("hex");

let es = "";
async function calls(n: number) {
  const token = await tokenFor(ES, ana);
  for (let i = 0; i < n; i++) {
    await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ token, trace: freshTrace() }));
    await integratePending();
  }
}
async function noteOf(logId: string, size?: number) {
  const res = await call(
    checkpointGET,
    `/api/audit/logs/${logId}/checkpoint${size ? `?size=${size}` : ""}`,
    params(logId),
  );
  return { res, text: await res.text() };
}
async function vkey(): Promise<string> {
  const body = (await (
    await publicKeysGET(new Request("http://localhost:3000/api/audit/public-keys"), undefined)
  ).json()) as {
    keys: { vkey: string; status: string }[];
  };
  return body.keys.find((k) => k.status === "current")!.vkey;
}

beforeAll(async () => {
  es = (await db().tenant.findUniqueOrThrow({ where: { slug: ES } })).id;
  await calls(3);
});

describe("C2SP checkpoints", () => {
  it("the newest checkpoint is a signed note: origin <host>/audit/<logId>, size, base64 root of the signed tree", async () => {
    const { res, text } = await noteOf(es);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const { text: body } = parseNote(text);
    const cp = parseCheckpointText(body);
    const row = await db().auditSignedCheckpoint.findFirstOrThrow({
      where: { logId: es },
      orderBy: { treeSize: "desc" },
    });
    expect(cp).toEqual({ origin: `localhost:3000/audit/${es}`, treeSize: row.treeSize, rootHash: row.rootHash });
    const key = parseVkey(await vkey());
    expect(key.name).toBe("localhost:3000/audit");
    expect(verifiedBy(text, key)).toHaveLength(1);
  });

  it("public keys list the current key as a vkey beside the old public-key answer (same key)", async () => {
    const old = (await oldCheckpointKeyGET().json()) as { publicKey: string; keyId: string };
    const body = (await (
      await publicKeysGET(new Request("http://localhost:3000/api/audit/public-keys"), undefined)
    ).json()) as {
      keys: { vkey: string; publicKey: string; keyId: string; status: string; validUntil: string | null }[];
    };
    expect(body.keys).toEqual([
      expect.objectContaining({ status: "current", publicKey: old.publicKey, keyId: old.keyId, validUntil: null }),
    ]);
    expect(body.keys[0]!.vkey).toMatch(/^localhost:3000\/audit\+[0-9a-f]{8}\+A[A-Za-z0-9+/]{43}$/);
  });

  it("consistency and inclusion proofs are served for monitors and witnesses, and verify", async () => {
    const sizes = (
      await db().auditSignedCheckpoint.findMany({ where: { logId: es }, orderBy: { treeSize: "asc" } })
    ).map((c) => c);
    const a = sizes.at(-3)!;
    const b = sizes.at(-1)!;
    const res = await call(
      consistencyGET,
      `/api/audit/logs/${es}/consistency?from=${a.treeSize}&to=${b.treeSize}`,
      params(es),
    );
    const proof = (await res.text()).split("\n").filter(Boolean).map(hex);
    expect(verifyConsistency(a.treeSize, b.treeSize, a.rootHash, b.rootHash, proof)).toBe(true);
    const inc = (await (
      await call(inclusionGET, `/api/audit/logs/${es}/inclusion?index=${a.treeSize - 1}&size=${b.treeSize}`, params(es))
    ).json()) as {
      leafHash: string;
      proof: string[];
    };
    expect(verifyInclusion(a.treeSize - 1, b.treeSize, hex(inc.leafHash), inc.proof.map(hex), b.rootHash)).toBe(true);
  });

  it("bad parameters get a stable code, never a 500; sizes beyond the signed tree are not found", async () => {
    const bad = async (path: string, h = consistencyGET, logId = es) => {
      const r = await call(h, path, params(logId));
      return { status: r.status, code: ((await r.json()) as { code: string }).code };
    };
    expect(await bad(`/x?from=2&to=1`)).toEqual({ status: 400, code: "invalid_arguments" });
    expect(await bad(`/x?from=a&to=1`)).toEqual({ status: 400, code: "invalid_arguments" });
    expect(await bad(`/x?from=1&to=99999`)).toEqual({ status: 404, code: "not_found" });
    expect(await bad(`/x`, checkpointGET, "not-a-uuid")).toEqual({ status: 404, code: "not_found" });
    expect(await bad(`/x?size=99999`, checkpointGET)).toEqual({ status: 404, code: "not_found" });
    expect(await bad(`/x`, checkpointGET, "11111111-1111-4111-8111-111111111111")).toEqual({
      status: 404,
      code: "not_found",
    });
  });
});

describe("interoperability: Go's golang.org/x/mod/sumdb/note (Debian's golang-golang-x-mod-dev)", () => {
  let verifier = "";
  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), "note-verify-"));
    writeFileSync(
      join(dir, "main.go"),
      `package main

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/mod/sumdb/note"
)

func main() {
	v, err := note.NewVerifier(os.Args[1])
	if err != nil {
		fmt.Println("bad vkey:", err)
		os.Exit(2)
	}
	msg, _ := io.ReadAll(os.Stdin)
	n, err := note.Open(msg, note.VerifierList(v))
	if err != nil {
		fmt.Println("refused:", err)
		os.Exit(1)
	}
	fmt.Printf("verified %d signature(s)\\n%s", len(n.Sigs), n.Text)
}
`,
    );
    const env = {
      ...process.env,
      GO111MODULE: "off",
      GOPATH: "/usr/share/gocode",
      HOME: dir,
      GOCACHE: join(dir, "cache"),
      GOFLAGS: "",
    };
    const built = spawnSync("go", ["build", "-o", join(dir, "note-verify"), "main.go"], {
      cwd: dir,
      env,
      encoding: "utf8",
    });
    if (built.error || built.status !== 0)
      throw new Error(
        `go build failed (install golang-go and golang-golang-x-mod-dev): ${built.error?.message ?? built.stderr}`,
      );
    verifier = join(dir, "note-verify");
  }, 120_000);

  const run = (vk: string, note: string) => spawnSync(verifier, [vk], { input: note, encoding: "utf8" });

  it("accepts our checkpoint with our vkey, and reads the same body", async () => {
    const { text } = await noteOf(es);
    const r = run(await vkey(), text);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`verified 1 signature(s)\n${parseNote(text).text}`);
  });

  it("refuses it with one byte changed — in the size, in the root, or in the signature", async () => {
    const { text } = await noteOf(es);
    const key = await vkey();
    const cp = parseCheckpointText(parseNote(text).text);
    const lines = text.split("\n");
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    const changed = [
      text.replace(`\n${cp.treeSize}\n`, `\n${cp.treeSize + 1}\n`),
      [lines[0], lines[1], flip(lines[2]!, 5), ...lines.slice(3)].join("\n"),
      text.slice(0, -10) + flip(text.slice(-10), 3),
    ];
    for (const note of changed) {
      expect(note).not.toBe(text);
      const r = run(key, note);
      expect(r.status).toBe(1);
      expect(r.stdout).toMatch(/^refused:/);
    }
  });
});
