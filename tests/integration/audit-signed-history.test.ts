// A log that never signs two histories: the signer keeps its last signed (size, root) per log outside the
// database (lib/server/audit/signer-state.ts). The database owner deletes the newest events with their
// leaves, nodes and checkpoints — a smaller log that is consistent in itself — and the sequencer refuses to
// sign on top of it, `audit:verify`'s check and /api/health call it tampering.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { integratePending } from "@/lib/server/audit/sequencer";
import { verifyAuditChain } from "@/lib/server/audit/verify-chain";
import { checkHealth } from "@/lib/server/health/check-health";
import { sqlPool } from "@/lib/server/db/pg";
import {
  databaseKey,
  readDatabaseIdentity,
  readSignedHead,
  type DatabaseIdentity,
} from "@/lib/server/audit/signer-state";
import { ES, ana, anthropicCall, freshTrace, headersFor, send, tokenFor } from "./gateway-support";
import { truncateLogTail } from "./audit-support";

const stateDir = mkdtempSync(join(tmpdir(), "audit-signer-"));
process.env.AUDIT_SIGNER_STATE_DIR = stateDir;

let es = "";
let identity: DatabaseIdentity;
beforeAll(async () => {
  es = (await db().tenant.findUniqueOrThrow({ where: { slug: ES } })).id;
  identity = await readDatabaseIdentity(sqlPool());
});

async function calls(n: number) {
  const token = await tokenFor(ES, ana);
  for (let i = 0; i < n; i++)
    await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ token, trace: freshTrace() }));
}
const checkpointSizes = async () =>
  (await db().auditSignedCheckpoint.findMany({ where: { logId: es }, orderBy: { treeSize: "asc" } })).map(
    (c) => c.treeSize,
  );
const headFile = () => join(stateDir, databaseKey(identity), `${es}.json`);

describe("the signer's memory of what it signed", () => {
  it("is written after each signed checkpoint, beside the key, keyed by database and log", async () => {
    await calls(3);
    await integratePending();
    const sizes = await checkpointSizes();
    const newest = await db().auditSignedCheckpoint.findFirstOrThrow({
      where: { logId: es },
      orderBy: { treeSize: "desc" },
    });
    expect(readSignedHead(identity, es)).toMatchObject({
      treeSize: sizes.at(-1),
      rootHash: newest.rootHash,
      keyId: newest.keyId,
    });
    expect(JSON.parse(readFileSync(headFile(), "utf8")).treeSize).toBe(newest.treeSize);
    expect((await checkHealth()).checks.auditSignedHistory).toBe("ok");
    expect((await verifyAuditChain(es)).ok).toBe(true);
  });

  it("an older memory (a crash between commit and write) is caught up by a valid consistency proof", async () => {
    const sizes = await checkpointSizes();
    const older = await db().auditSignedCheckpoint.findFirstOrThrow({ where: { logId: es, treeSize: sizes.at(-2)! } });
    writeFileSync(
      headFile(),
      JSON.stringify({ treeSize: older.treeSize, rootHash: older.rootHash, issuedAt: "", keyId: older.keyId }),
    );
    await calls(1);
    await integratePending();
    expect(readSignedHead(identity, es)!.treeSize).toBeGreaterThan(sizes.at(-1)!);
  });

  it("an older memory whose root the database does not extend is a second history: refused", async () => {
    const sizes = await checkpointSizes();
    const older = await db().auditSignedCheckpoint.findFirstOrThrow({ where: { logId: es, treeSize: sizes.at(-2)! } });
    const saved = readFileSync(headFile(), "utf8");
    writeFileSync(
      headFile(),
      JSON.stringify({ treeSize: older.treeSize, rootHash: "ab".repeat(32), issuedAt: "", keyId: older.keyId }),
    );
    await calls(1);
    await expect(integratePending()).rejects.toThrow(
      /refusing to sign: fork: the tree of size \d+ does not extend the signed checkpoint/,
    );
    expect(await checkpointSizes()).toEqual(sizes);
    writeFileSync(headFile(), saved);
    await integratePending();
    expect((await checkpointSizes()).length).toBe(sizes.length + 1);
  });

  it("the tail deleted as the database owner: the sequencer refuses to sign, verify and health call it tampering", async () => {
    await calls(2);
    await integratePending();
    const sizes = await checkpointSizes();
    const signed = sizes.at(-1)!;
    const keep = sizes.at(-3)!;
    await truncateLogTail(es, keep);
    expect(await checkpointSizes()).toEqual(sizes.filter((s) => s <= keep));

    const v = await verifyAuditChain(es);
    expect(v).toMatchObject({
      ok: false,
      problem: `tampering: tail truncated: a checkpoint of size ${signed} was signed but the log now holds ${keep} leaves`,
    });
    const health = await checkHealth();
    expect(health.checks.auditSignedHistory).toBe("tampered");
    expect(health.status).toBe("degraded");

    // New events arrive: the sequencer would have to sign a tree of a size it already signed, with another root.
    await calls(3);
    await expect(integratePending()).rejects.toThrow(
      new RegExp(`refusing to sign: tail truncated: a checkpoint of size ${signed} was signed`),
    );
    expect(await checkpointSizes()).toEqual(sizes.filter((s) => s <= keep));
    expect(await db().auditLeaf.count({ where: { logId: es } })).toBe(keep);
    expect(readSignedHead(identity, es)!.treeSize).toBe(signed);
  });

  it("a deleted signed checkpoint at the remembered size is reported too", async () => {
    // The tenant log above is already broken; the tenantless log is whole: delete only its newest checkpoint row.
    const logId = "00000000-0000-0000-0000-000000000000";
    await send(
      anthropicCall("lookup_order", { order_id: "ORD-1001" }),
      headersFor({ key: "agk_nobody", trace: freshTrace() }),
    );
    await integratePending().catch(() => undefined);
    const head = readSignedHead(identity, logId);
    expect(head).not.toBeNull();
    const { asAuditOwner } = await import("./audit-support");
    await asAuditOwner(`DELETE FROM "AuditSignedCheckpoint" WHERE "logId" = $1 AND "treeSize" = $2`, [
      logId,
      head!.treeSize,
    ]);
    expect(await verifyAuditChain(null)).toMatchObject({
      ok: false,
      problem: `tampering: the signed checkpoint of size ${head!.treeSize} was deleted`,
    });
  });
});
