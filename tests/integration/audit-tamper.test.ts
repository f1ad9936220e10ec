// Tamper evidence against the real database: someone who can bypass the append-only triggers rewrites an
// event, deletes one, reorders leaves, or rewrites history with every hash recomputed. The verifier names
// the first broken leaf; a full rewrite is caught by the Ed25519-signed checkpoints (no key, no valid
// signature) and by an auditor's saved checkpoint. The periodic check stores the break (health: degraded)
// and writes an alert event; `npm run audit:verify` exits 1.
import { spawnSync } from "node:child_process";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { runJobsOnce } from "../support/run-jobs-once";
import { auditLeafHash, type AuditContent } from "@/lib/domain/audit-log";
import { merkleRoot, verifyConsistency } from "@/lib/domain/merkle";
import { db } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { verifyAuditChain } from "@/lib/server/audit/verify-chain";
import { verifyAllAuditChains } from "@/lib/server/audit/verify-all-chains";
import { integratePending } from "@/lib/server/audit/sequencer";
import { getAuditCheckpoint } from "@/lib/server/audit/get-audit-checkpoint";
import { checkHealth } from "@/lib/server/health/check-health";
import { crontab } from "@/lib/server/jobs/tasks";
import { enqueueJob } from "@/lib/server/jobs/enqueue";
import { ES, ana, anthropicCall, freshTrace, headersFor, send, tokenFor } from "./gateway-support";
import { actorOf, asAuditOwner } from "./audit-support";
import { transaction } from "@/lib/server/db/transaction";

let tenantId: string;
type Row = Record<string, unknown> & { id: string };
/** Runs statements as someone who bypasses the append-only triggers (a database owner). */
const sql = <T = Row>(text: string, params: unknown[] = []) => asAuditOwner<T>(text, params);

/** The event at a leaf index of the tenant's log. */
const eventAt = async (leafIndex: number) =>
  (
    await sql(
      `SELECT e.* FROM "AuditEvent" e JOIN "AuditLeaf" l ON l."eventId" = e.id WHERE l."logId" = $1 AND l."leafIndex" = $2`,
      [tenantId, leafIndex],
    )
  )[0]!;
async function restore(row: Row) {
  const cols = Object.keys(row);
  await sql(`DELETE FROM "AuditEvent" WHERE id = $1`, [row.id]);
  await sql(
    `INSERT INTO "AuditEvent" (${cols.map((c) => `"${c}"`).join(",")}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(",")})`,
    cols.map((c) => (c === "data" ? JSON.stringify(row[c]) : row[c])),
  );
}

function auditVerifyCli() {
  return spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/audit-verify.ts"], {
    env: process.env,
    encoding: "utf8",
    timeout: 60_000,
  });
}

beforeAll(async () => {
  tenantId = (await db().tenant.findUniqueOrThrow({ where: { slug: ES } })).id;
  const token = await tokenFor(ES, ana);
  // Several sequencer batches, so the log has several signed checkpoints.
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++)
      await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ token, trace: freshTrace() }));
    await integratePending();
  }
});

afterEach(async () => {
  await integratePending();
  expect(await verifyAuditChain(tenantId)).toMatchObject({ ok: true });
});

describe("tamper evidence", () => {
  it("an untouched log verifies, with several signed checkpoints; the stored check is ok and health is ok", async () => {
    const v = await verifyAuditChain(tenantId);
    expect(v).toMatchObject({ ok: true, pending: 0 });
    expect(v.ok && v.checkpoints).toBeGreaterThanOrEqual(3);
    const all = await verifyAllAuditChains("test");
    expect(all).toMatchObject({ ok: true, broken: null });
    expect(await checkHealth()).toMatchObject({ status: "ok", checks: { auditChain: "ok" } });
  });

  it("events written without the writer's lock are all integrated, in one tree, under concurrency", async () => {
    const token = await tokenFor(ES, ana);
    const before = await db().auditLeaf.count({ where: { logId: tenantId } });
    await Promise.all(
      Array.from({ length: 12 }, () =>
        send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ token, trace: freshTrace() })),
      ),
    );
    expect(await db().auditPending.count({ where: { logId: tenantId } })).toBeGreaterThanOrEqual(12);
    await integratePending();
    expect(await db().auditPending.count({ where: { logId: tenantId } })).toBe(0);
    expect(await db().auditLeaf.count({ where: { logId: tenantId } })).toBe(before + 12);
    expect(await db().auditLeaf.count({ where: { logId: tenantId } })).toBe(
      await db().auditEvent.count({ where: { tenantId } }),
    );
  });

  it("a rewritten event is named", async () => {
    const original = await eventAt(3);
    await sql(`UPDATE "AuditEvent" SET outcome = 'permission_denied' WHERE id = $1`, [original.id]);
    expect(await verifyAuditChain(tenantId)).toMatchObject({
      ok: false,
      brokenAtSeq: 3,
      eventId: original.id,
      problem: "content does not match its leaf hash",
    });
    await restore(original);
  });

  it("a deleted event is named; so is a deleted leaf, and an event slipped in outside the writer", async () => {
    const third = await eventAt(3);
    await sql(`DELETE FROM "AuditEvent" WHERE id = $1`, [third.id]);
    expect(await verifyAuditChain(tenantId)).toMatchObject({
      ok: false,
      brokenAtSeq: 3,
      eventId: third.id,
      problem: expect.stringMatching(/missing/),
    });
    await restore(third);

    const [leaf] = await sql(`SELECT * FROM "AuditLeaf" WHERE "logId" = $1 AND "leafIndex" = 2`, [tenantId]);
    await sql(`DELETE FROM "AuditLeaf" WHERE "logId" = $1 AND "leafIndex" = 2`, [tenantId]);
    expect(await verifyAuditChain(tenantId)).toMatchObject({ ok: false, brokenAtSeq: 2 });
    await sql(`INSERT INTO "AuditLeaf" SELECT * FROM json_populate_record(NULL::"AuditLeaf", $1)`, [
      JSON.stringify(leaf),
    ]);

    const slipped = { ...(await eventAt(4)), id: "7b3f0a52-58f1-4c0e-9d36-3c1d6f6b9a11" };
    await sql(`INSERT INTO "AuditEvent" SELECT * FROM json_populate_record(NULL::"AuditEvent", $1)`, [
      JSON.stringify({ ...slipped, pos: 999_999_999 }),
    ]);
    expect(await verifyAuditChain(tenantId)).toMatchObject({
      ok: false,
      eventId: slipped.id,
      problem: expect.stringMatching(/neither in the tree/),
    });
    await sql(`DELETE FROM "AuditEvent" WHERE id = $1`, [slipped.id]);
  });

  it("reordered leaves are caught by the signed checkpoints", async () => {
    await sql(`UPDATE "AuditLeaf" SET "leafIndex" = -1 WHERE "logId" = $1 AND "leafIndex" = 1`, [tenantId]);
    await sql(`UPDATE "AuditLeaf" SET "leafIndex" = 1 WHERE "logId" = $1 AND "leafIndex" = 2`, [tenantId]);
    await sql(`UPDATE "AuditLeaf" SET "leafIndex" = 2 WHERE "logId" = $1 AND "leafIndex" = -1`, [tenantId]);
    expect(await verifyAuditChain(tenantId)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/does not match its signed checkpoint/),
    });
    await sql(`UPDATE "AuditLeaf" SET "leafIndex" = -1 WHERE "logId" = $1 AND "leafIndex" = 1`, [tenantId]);
    await sql(`UPDATE "AuditLeaf" SET "leafIndex" = 1 WHERE "logId" = $1 AND "leafIndex" = 2`, [tenantId]);
    await sql(`UPDATE "AuditLeaf" SET "leafIndex" = 2 WHERE "logId" = $1 AND "leafIndex" = -1`, [tenantId]);
  });

  it("history rewritten with every hash recomputed is caught by the signatures, and by an auditor's saved checkpoint", async () => {
    const auditor = await actorOf(ES, "auditor");
    const saved = (await getAuditCheckpoint(auditor, {})).checkpoint!;
    const snapshot = {
      events: await sql(`SELECT * FROM "AuditEvent" WHERE "tenantId" = $1`, [tenantId]),
      leaves: await sql(`SELECT * FROM "AuditLeaf" WHERE "logId" = $1`, [tenantId]),
      nodes: await sql(`SELECT * FROM "AuditTreeNode" WHERE "logId" = $1`, [tenantId]),
      cps: await sql(`SELECT * FROM "AuditSignedCheckpoint" WHERE "logId" = $1`, [tenantId]),
    };
    // The attacker changes event 1, recomputes its leaf hash, every tree node and every checkpoint root.
    const victim = (await eventAt(1)) as unknown as AuditContent & { id: string };
    const forged = { ...victim, outcome: "permission_denied" };
    const forgedHash = auditLeafHash(forged);
    await sql(`UPDATE "AuditEvent" SET outcome = 'permission_denied', hash = $2 WHERE id = $1`, [
      victim.id,
      forgedHash,
    ]);
    await sql(`UPDATE "AuditLeaf" SET "leafHash" = $2 WHERE "eventId" = $1`, [victim.id, forgedHash]);
    const leaves = (await db().auditLeaf.findMany({ where: { logId: tenantId }, orderBy: { leafIndex: "asc" } })).map(
      (l) => l.leafHash,
    );
    await sql(`DELETE FROM "AuditTreeNode" WHERE "logId" = $1`, [tenantId]);
    for (const cp of snapshot.cps)
      await sql(`UPDATE "AuditSignedCheckpoint" SET "rootHash" = $3 WHERE "logId" = $1 AND "treeSize" = $2`, [
        tenantId,
        cp.treeSize,
        merkleRoot(leaves.slice(0, cp.treeSize as number)),
      ]);
    // Content and tree now agree; only the signatures give it away.
    expect(await verifyAuditChain(tenantId)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/not signed by the audit key/),
    });
    // Even with every checkpoint deleted, the auditor's saved one no longer fits the served log.
    await sql(`DELETE FROM "AuditSignedCheckpoint" WHERE "logId" = $1`, [tenantId]);
    await expect(getAuditCheckpoint(auditor, { consistencyFrom: saved.treeSize })).resolves.toMatchObject({
      checkpoint: null,
    });
    expect(merkleRoot(leaves.slice(0, saved.treeSize))).not.toBe(saved.rootHash);

    // Put the real history back.
    await sql(`DELETE FROM "AuditEvent" WHERE id = $1`, [victim.id]);
    await restore(snapshot.events.find((e) => e.id === victim.id)!);
    await sql(`UPDATE "AuditLeaf" SET "leafHash" = $2 WHERE "eventId" = $1`, [
      victim.id,
      snapshot.leaves.find((l) => l.eventId === victim.id)!.leafHash,
    ]);
    for (const n of snapshot.nodes)
      await sql(`INSERT INTO "AuditTreeNode" SELECT * FROM json_populate_record(NULL::"AuditTreeNode", $1)`, [
        JSON.stringify(n),
      ]);
    for (const c of snapshot.cps)
      await sql(
        `INSERT INTO "AuditSignedCheckpoint" SELECT * FROM json_populate_record(NULL::"AuditSignedCheckpoint", $1)`,
        [JSON.stringify(c)],
      );
  });

  it("an auditor's saved checkpoint gets a consistency proof to the newest one", async () => {
    const auditor = await actorOf(ES, "auditor");
    const saved = (await getAuditCheckpoint(auditor, {})).checkpoint!;
    const token = await tokenFor(ES, ana);
    await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ token, trace: freshTrace() }));
    await integratePending();
    const now = await getAuditCheckpoint(auditor, { consistencyFrom: saved.treeSize });
    expect(now.checkpoint!.treeSize).toBeGreaterThan(saved.treeSize);
    expect(
      verifyConsistency(
        saved.treeSize,
        now.checkpoint!.treeSize,
        saved.rootHash,
        now.checkpoint!.rootHash,
        now.consistency!.proof,
      ),
    ).toBe(true);
    await expect(getAuditCheckpoint(auditor, { consistencyFrom: "x" })).rejects.toMatchObject({
      code: "invalid_arguments",
    });
    await expect(getAuditCheckpoint(await actorOf(ES, "ops"), {})).rejects.toMatchObject({ code: "permission_denied" });
  });

  it("the periodic check stores the break (health degraded), writes an alert event, and audit:verify exits 1 naming it", async () => {
    const original = await eventAt(4);
    await sql(`UPDATE "AuditEvent" SET data = '{"forged":true}' WHERE id = $1`, [original.id]);
    const all = await verifyAllAuditChains("job:verify_audit_chain");
    expect(all).toMatchObject({ ok: false, broken: { tenantId, seq: 4, eventId: original.id } });
    expect(await checkHealth()).toMatchObject({ status: "degraded", checks: { database: "ok", auditChain: "broken" } });
    expect(await db().auditEvent.count({ where: { tenantId, action: "audit:chain_broken" } })).toBe(1);
    const cli = auditVerifyCli();
    expect(cli.status, cli.stderr + cli.stdout).toBe(1);
    expect(cli.stderr).toContain("BROKEN in tenant tienda-es at leaf 4");
    await restore(original);
    const again = auditVerifyCli();
    expect(again.status, again.stderr + again.stdout).toBe(0);
    expect(await checkHealth()).toMatchObject({ status: "ok", checks: { auditChain: "ok" } });
  });

  it("the hourly verify_audit_chain job (the crontab's path) stores its result", async () => {
    expect(crontab).toMatch(/^\S+ \* \* \* \* verify_audit_chain /m);
    expect(crontab).toMatch(/ purge_audit_events /);
    const before = await db().auditChainCheck.count({ where: { source: "job:verify_audit_chain", ok: true } });
    await transaction((tx) => enqueueJob(sqlOf(tx), "verify_audit_chain", {}));
    await runJobsOnce();
    expect(await db().auditChainCheck.count({ where: { source: "job:verify_audit_chain", ok: true } })).toBe(
      before + 1,
    );
  });
});
