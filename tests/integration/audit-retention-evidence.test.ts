// Retention and evidence packs against the real database: a purge drops old content but keeps every leaf,
// so the log and later proofs still verify; a held trace keeps its content until the hold is released;
// AuditEvent is partitioned by month. An evidence pack (with a real passkey approval) verifies offline with
// only the public key, and changing one byte of it fails, in code and through `npm run evidence:verify`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { openPgClient } from "@/lib/server/db/pg-client";
import { webAuthnRelyingParty } from "@/lib/server/env";
import { verifyAuditChain } from "@/lib/server/audit/verify-chain";
import { purgeAuditEvents } from "@/lib/server/audit/purge-audit-events";
import { placeLegalHold } from "@/lib/server/audit/place-legal-hold";
import { buildEvidencePack } from "@/lib/server/audit/build-evidence-pack";
import { getAuditTrace } from "@/lib/server/audit/get-audit-trace";
import { verifyEvidencePack } from "@/lib/domain/evidence-pack";
import { verifyInclusion } from "@/lib/domain/merkle";
import { dropEmptyAuditPartitions } from "@/lib/server/audit/purge-audit-events";
import { releaseLegalHold } from "@/lib/server/audit/release-legal-hold";
import { integratePending } from "@/lib/server/audit/sequencer";
import { auditPublicKey } from "@/lib/server/audit/signing-key";
import { latestCheckpoint, proveInclusion } from "@/lib/server/audit/tree-store";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { createRegistrationOptions } from "@/lib/server/passkeys/create-registration-options";
import { registerPasskey } from "@/lib/server/passkeys/register-passkey";
import { createApprovalOptions } from "@/lib/server/passkeys/create-approval-options";
import { createSoftAuthenticator } from "../support/soft-authenticator";
import { ES, US, ana, anthropicCall, freshTrace, headersFor, send, tokenFor } from "./gateway-support";
import { actorOf, approvedProposal, preparedProposal } from "./audit-support";

const DAY = 86_400_000;
const publicKey = () => auditPublicKey().publicKey;
const tenantOf = async (slug: string) => db().tenant.findUniqueOrThrow({ where: { slug } });

function flipByte(text: string, at: number): string {
  const c = text[at]!;
  const next = /[0-9]/.test(c)
    ? String((Number(c) + 1) % 10)
    : /[a-f]/.test(c)
      ? c === "f"
        ? "e"
        : String.fromCharCode(c.charCodeAt(0) + 1)
      : c === "x"
        ? "y"
        : "x";
  return text.slice(0, at) + next + text.slice(at + 1);
}

describe("retention", () => {
  it("purges old content but keeps the leaves: the log still verifies, proofs still hold, a held trace keeps its content until released", async () => {
    const es = await tenantOf(ES);
    const token = await tokenFor(ES, ana);
    const held = freshTrace();
    const dropped = freshTrace();
    await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ token, trace: held }));
    await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ token, trace: dropped }));
    await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ token, trace: held }));
    await placeLegalHold(await actorOf(ES, "admin"), { traceId: held, reason: "dispute 42" });
    await expect(
      placeLegalHold(await actorOf(ES, "auditor"), { traceId: held, reason: "x".repeat(5) }),
    ).rejects.toMatchObject({ code: "permission_denied" });
    const heldBefore = await db().auditEvent.count({ where: { tenantId: es.id, traceId: held } });
    expect(heldBefore).toBe(3); // two calls and the hold itself
    const usBefore = await db().auditEvent.count({ where: { tenantId: (await tenantOf(US)).id } });
    const droppedEvent = await db().auditEvent.findFirstOrThrow({ where: { traceId: dropped } });

    // Not integrated yet: the purge leaves queued events alone (their content is all the verifier has).
    const asOf = new Date(Date.now() + (es.retentionDays + 1) * DAY);
    expect(await purgeAuditEvents(es.id, asOf)).toMatchObject({ status: "nothing_to_purge" });
    await integratePending();
    const leavesBefore = await db().auditLeaf.count({ where: { logId: es.id } });
    const droppedLeaf = await db().auditLeaf.findUniqueOrThrow({ where: { eventId: droppedEvent.id } });
    const cpBefore = (await latestCheckpoint(db(), es.id))!;

    // As of a day past the retention period, everything so far is old.
    const r = await purgeAuditEvents(es.id, asOf);
    expect(r).toMatchObject({ status: "purged", held: heldBefore });
    expect(await db().auditEvent.count({ where: { tenantId: es.id, traceId: dropped } })).toBe(0);
    expect(await db().auditEvent.count({ where: { tenantId: es.id, traceId: held } })).toBe(heldBefore);
    // Every leaf stays: the purged event's hash still proves against the checkpoint signed before the purge.
    expect(await db().auditLeaf.count({ where: { logId: es.id } })).toBe(leavesBefore);
    const proof = await proveInclusion(sqlPool(), es.id, droppedLeaf.leafIndex, cpBefore.treeSize);
    expect(verifyInclusion(droppedLeaf.leafIndex, cpBefore.treeSize, droppedEvent.hash, proof, cpBefore.rootHash)).toBe(
      true,
    );
    await integratePending();
    expect(await verifyAuditChain(es.id)).toMatchObject({ ok: true, purged: expect.any(Number) });
    // The purge is an audit event; other tenants are untouched.
    expect(await db().auditEvent.count({ where: { tenantId: es.id, action: "audit:purge" } })).toBe(1);
    expect(await db().auditEvent.count({ where: { tenantId: (await tenantOf(US)).id } })).toBe(usBefore);
    expect(await db().auditPurge.count({ where: { logId: es.id } })).toBe(1);
    // A second purge right away has nothing to do.
    expect(await purgeAuditEvents(es.id)).toMatchObject({ status: "nothing_to_purge" });
    // The held trace's story is still readable.
    expect((await getAuditTrace(await actorOf(ES, "auditor"), held)).steps.map((s) => s.action)).toEqual([
      "tool:lookup_order",
      "tool:lookup_order",
      "audit:legal_hold",
    ]);

    // Leaves and purge records cannot be removed or changed.
    const c = await openPgClient(process.env.DATABASE_URL!);
    await expect(c.query(`DELETE FROM "AuditLeaf" WHERE "eventId" = $1`, [droppedEvent.id])).rejects.toThrow(
      /append-only/,
    );
    await expect(c.query(`UPDATE "AuditPurge" SET "before" = now() WHERE "logId" = $1`, [es.id])).rejects.toThrow(
      /append-only/,
    );
    // A held event changed after the purge is still named…
    await integratePending();
    const h = await db().auditEvent.findFirstOrThrow({
      where: { tenantId: es.id, traceId: held },
      orderBy: { pos: "asc" },
    });
    const hLeaf = await db().auditLeaf.findUniqueOrThrow({ where: { eventId: h.id } });
    await c.query(`ALTER TABLE "AuditEvent" DISABLE TRIGGER "AuditEvent_append_only"`);
    await c.query(`UPDATE "AuditEvent" SET outcome = 'not_found' WHERE id = $1`, [h.id]);
    expect(await verifyAuditChain(es.id)).toMatchObject({ ok: false, brokenAtSeq: hLeaf.leafIndex, eventId: h.id });
    // …and a broken log is not purged.
    expect(await purgeAuditEvents(es.id, asOf)).toMatchObject({
      status: "refused_broken_chain",
      brokenAtSeq: hLeaf.leafIndex,
    });
    await c.query(`UPDATE "AuditEvent" SET outcome = $2 WHERE id = $1`, [h.id, h.outcome]);
    await c.query(`ALTER TABLE "AuditEvent" ENABLE TRIGGER "AuditEvent_append_only"`);
    await c.end();
    expect(await verifyAuditChain(es.id)).toMatchObject({ ok: true });

    // Releasing the hold is admin-only, audited, once; then the next purge drops the trace's content.
    await expect(
      releaseLegalHold(await actorOf(ES, "auditor"), { traceId: held, reason: "dispute closed" }),
    ).rejects.toMatchObject({
      code: "permission_denied",
    });
    await releaseLegalHold(await actorOf(ES, "admin"), { traceId: held, reason: "dispute closed" });
    await expect(
      releaseLegalHold(await actorOf(ES, "admin"), { traceId: held, reason: "again" }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(
      await db().auditEvent.count({ where: { tenantId: es.id, traceId: held, action: "audit:legal_hold_release" } }),
    ).toBe(1);
    await integratePending();
    expect(await purgeAuditEvents(es.id, asOf)).toMatchObject({ status: "purged", held: 0 });
    expect(await db().auditEvent.count({ where: { tenantId: es.id, traceId: held } })).toBe(0);
    await integratePending();
    expect(await verifyAuditChain(es.id)).toMatchObject({ ok: true });
  });

  it("an event deleted outside a purge is named, even though its leaf remains", async () => {
    const es = await tenantOf(ES);
    const token = await tokenFor(ES, ana);
    await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ token, trace: freshTrace() }));
    await integratePending();
    // A recent event (no purge covers its time).
    const e = await db().auditEvent.findFirstOrThrow({ where: { tenantId: es.id }, orderBy: { pos: "desc" } });
    const leaf = await db().auditLeaf.findUniqueOrThrow({ where: { eventId: e.id } });
    const c = await openPgClient(process.env.DATABASE_URL!);
    const [row] = (await c.query(`SELECT * FROM "AuditEvent" WHERE id = $1`, [e.id])).rows as Record<string, unknown>[];
    await c.query(`ALTER TABLE "AuditEvent" DISABLE TRIGGER "AuditEvent_append_only"`);
    await c.query(`DELETE FROM "AuditEvent" WHERE id = $1`, [e.id]);
    try {
      expect(await verifyAuditChain(es.id)).toMatchObject({
        ok: false,
        brokenAtSeq: leaf.leafIndex,
        eventId: e.id,
        problem: expect.stringMatching(/missing/),
      });
    } finally {
      const cols = Object.keys(row!);
      await c.query(
        `INSERT INTO "AuditEvent" (${cols.map((k) => `"${k}"`).join(",")}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(",")})`,
        cols.map((k) => (k === "data" ? JSON.stringify(row![k]) : row![k])),
      );
      await c.query(`ALTER TABLE "AuditEvent" ENABLE TRIGGER "AuditEvent_append_only"`);
      await c.end();
    }
    expect(await verifyAuditChain(es.id)).toMatchObject({ ok: true });
  });

  it("events live in monthly partitions of AuditEvent; empty old months are dropped", async () => {
    const { rows: parts } = await sql<{ name: string }>`
      SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = '"AuditEvent"'::regclass ORDER BY 1`.execute(
      sqlPool(),
    );
    const month = new Date().toISOString().slice(0, 7).replace("-", "_");
    expect(parts.map((p) => p.name)).toEqual(expect.arrayContaining(["AuditEvent_default", `AuditEvent_${month}`]));
    const {
      rows: [where],
    } = await sql<{
      part: string;
    }>`SELECT tableoid::regclass::text AS part FROM "AuditEvent" ORDER BY "pos" DESC LIMIT 1`.execute(sqlPool());
    expect(where!.part).toBe(`"AuditEvent_${month}"`);
    expect(
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM "AuditEvent_default"`.execute(sqlPool())).rows,
    ).toEqual([{ n: 0 }]);
    // An old, empty month goes; the current one (with rows) stays.
    await sql`CREATE TABLE "AuditEvent_2001_01" PARTITION OF "AuditEvent" FOR VALUES FROM ('2001-01-01') TO ('2001-02-01')`.execute(
      sqlPool(),
    );
    const dropped = await dropEmptyAuditPartitions(new Date());
    expect(dropped).toContain("AuditEvent_2001_01");
    expect(dropped).not.toContain(`AuditEvent_${month}`);
  });
});

describe("evidence pack", () => {
  it("a passkey-approved proposal's pack verifies offline; one changed byte fails, also through npm run evidence:verify", async () => {
    const { proposal } = await preparedProposal(ana, 3_210);
    const reviewer = await actorOf(ES, "reviewer");
    const key = createSoftAuthenticator(webAuthnRelyingParty());
    await registerPasskey(reviewer, {
      response: key.register((await createRegistrationOptions(reviewer)).challenge),
      name: "audit test key",
    });
    const options = await createApprovalOptions(reviewer, { proposalId: proposal.id, hash: proposal.hash });
    await approveProposal(reviewer, {
      proposalId: proposal.id,
      hash: proposal.hash,
      stepUp: { method: "passkey", response: key.authenticate(options.challenge) },
    });

    const auditor = await actorOf(ES, "auditor");
    const trace = await getAuditTrace(auditor, proposal.traceId);
    expect(trace.proposals[0]!.approvals[0]).toMatchObject({ authMethod: "passkey", passkeyCheck: "verified" });

    await integratePending(); // what the worker's sequencer does within ~100 ms
    const { body } = await buildEvidencePack(auditor, proposal.id);
    const pack = JSON.parse(body) as {
      approvals: { passkey: unknown }[];
      events: { inclusionProof: unknown }[];
      checkpoint: { treeSize: number };
    };
    expect(pack.approvals[0]!.passkey).not.toBeNull();
    expect(pack.events.length).toBeGreaterThanOrEqual(3);
    expect(pack.events.every((e) => Array.isArray(e.inclusionProof))).toBe(true);
    const verdict = await verifyEvidencePack(body, { publicKey: publicKey() });
    expect(verdict.checks.filter((c) => !c.ok)).toEqual([]);
    expect(verdict.checks.map((c) => c.name)).toContain(
      `approval ${(JSON.parse(body) as { approvals: { id: string }[] }).approvals[0]!.id} passkey signature`,
    );

    // One byte inside the proposal hash, the signature, an event's data, and the last bytes.
    const positions = [
      body.indexOf(proposal.hash) + 10,
      body.indexOf('"signature":"') + 20,
      body.indexOf('"data":') + 9,
      body.length - 3,
    ];
    for (const at of positions)
      expect((await verifyEvidencePack(flipByte(body, at), { publicKey: publicKey() })).ok, `byte ${at}`).toBe(false);

    const dir = mkdtempSync(join(tmpdir(), "evidence-"));
    writeFileSync(join(dir, "ok.json"), body);
    writeFileSync(join(dir, "bad.json"), flipByte(body, positions[0]!));
    // The key as an auditor saves it from GET /api/audit/public-key; the script has no database access.
    writeFileSync(join(dir, "key.json"), JSON.stringify(auditPublicKey()));
    const run = (f: string, key: string[] = ["--public-key", join(dir, "key.json")]) =>
      spawnSync(
        process.execPath,
        ["--conditions=react-server", "--import", "tsx", "scripts/evidence-verify.ts", join(dir, f), ...key],
        {
          env: { NODE_ENV: "test", PATH: process.env.PATH },
          encoding: "utf8",
          timeout: 60_000,
        },
      );
    const ok = run("ok.json");
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toContain("VERIFIED");
    const bad = run("bad.json");
    expect(bad.status, bad.stdout).toBe(1);
    const keyless = run("ok.json", []);
    expect(keyless.status, keyless.stdout).toBe(1);
    expect(keyless.stdout).toContain("FAIL checkpoint signature");

    // Building a pack is audited; other tenants and other roles get nothing.
    expect(await db().auditEvent.count({ where: { action: "audit:evidence_pack", proposalId: proposal.id } })).toBe(1);
    await expect(buildEvidencePack(await actorOf(US, "auditor"), proposal.id)).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(buildEvidencePack(await actorOf(ES, "ops"), proposal.id)).rejects.toMatchObject({
      code: "permission_denied",
    });
  });

  it("a password-approved proposal's pack verifies too", async () => {
    const { proposal } = await approvedProposal(ana, 1_999);
    await integratePending();
    const { body } = await buildEvidencePack(await actorOf(ES, "admin"), proposal.id);
    expect((await verifyEvidencePack(body, { publicKey: publicKey() })).ok).toBe(true);
  });
});
