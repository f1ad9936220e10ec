// Retention and evidence packs against the real database: a purge leaves a checkpoint so what remains still
// verifies, a held trace survives; an evidence pack (with a real passkey approval) verifies offline, and
// changing one byte of it fails, in code and through `npm run evidence:verify`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { webAuthnRelyingParty } from "@/lib/server/env";
import { verifyAuditChain } from "@/lib/server/audit/verify-chain";
import { purgeAuditEvents } from "@/lib/server/audit/purge-audit-events";
import { placeLegalHold } from "@/lib/server/audit/place-legal-hold";
import { buildEvidencePack } from "@/lib/server/audit/build-evidence-pack";
import { getAuditTrace } from "@/lib/server/audit/get-audit-trace";
import { verifyEvidencePack } from "@/lib/domain/evidence-pack";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { createRegistrationOptions } from "@/lib/server/passkeys/create-registration-options";
import { registerPasskey } from "@/lib/server/passkeys/register-passkey";
import { createApprovalOptions } from "@/lib/server/passkeys/create-approval-options";
import { createSoftAuthenticator } from "../support/soft-authenticator";
import { ES, US, ana, anthropicCall, freshTrace, headersFor, send, tokenFor } from "./gateway-support";
import { actorOf, approvedProposal, preparedProposal } from "./audit-support";

const DAY = 86_400_000;
const tenantOf = async (slug: string) => db().tenant.findUniqueOrThrow({ where: { slug } });

function flipByte(text: string, at: number): string {
  const c = text[at]!;
  const next = /[0-9]/.test(c) ? String((Number(c) + 1) % 10) : /[a-f]/.test(c) ? (c === "f" ? "e" : String.fromCharCode(c.charCodeAt(0) + 1)) : c === "x" ? "y" : "x";
  return text.slice(0, at) + next + text.slice(at + 1);
}

describe("retention", () => {
  it("purges old events but leaves a checkpoint: the rest verifies, a held trace survives, new events chain on", async () => {
    const es = await tenantOf(ES);
    const token = await tokenFor(ES, ana);
    const held = freshTrace();
    const dropped = freshTrace();
    await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ token, trace: held }));
    await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ token, trace: dropped }));
    await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ token, trace: held }));
    await placeLegalHold(await actorOf(ES, "admin"), { traceId: held, reason: "dispute 42" });
    await expect(placeLegalHold(await actorOf(ES, "auditor"), { traceId: held, reason: "x".repeat(5) })).rejects.toMatchObject({ code: "permission_denied" });
    const heldBefore = await db().auditEvent.count({ where: { tenantId: es.id, traceId: held } });
    expect(heldBefore).toBe(3); // two calls and the hold itself
    const usBefore = await db().auditEvent.count({ where: { tenantId: (await tenantOf(US)).id } });

    // As of a day past the retention period, everything so far is old.
    const asOf = new Date(Date.now() + (es.retentionDays + 1) * DAY);
    const r = await purgeAuditEvents(es.id, asOf);
    expect(r).toMatchObject({ status: "purged", held: heldBefore });
    expect(await db().auditEvent.count({ where: { tenantId: es.id, traceId: dropped } })).toBe(0);
    expect(await db().auditEvent.count({ where: { tenantId: es.id, traceId: held } })).toBe(heldBefore);
    const cp = await db().auditCheckpoint.findFirstOrThrow({ where: { tenantId: es.id } });
    expect(cp).toMatchObject({ lastSeq: r.status === "purged" ? r.throughSeq : -1 });
    expect(await verifyAuditChain(es.id)).toMatchObject({ ok: true });
    // The purge is an audit event; other tenants are untouched.
    expect(await db().auditEvent.count({ where: { tenantId: es.id, action: "audit:purge" } })).toBe(1);
    expect(await db().auditEvent.count({ where: { tenantId: (await tenantOf(US)).id } })).toBe(usBefore);
    // New events chain on from the checkpoint.
    await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ token, trace: freshTrace() }));
    expect(await verifyAuditChain(es.id)).toMatchObject({ ok: true });
    // A second purge right away has nothing to do.
    expect(await purgeAuditEvents(es.id)).toMatchObject({ status: "nothing_to_purge" });
    // The held trace's story is still readable.
    expect((await getAuditTrace(await actorOf(ES, "auditor"), held)).steps.map((s) => s.action)).toEqual(["tool:lookup_order", "tool:lookup_order", "audit:legal_hold"]);

    // Checkpoints cannot be removed (a removed checkpoint would make the chain fail, not pass).
    const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await c.connect();
    await expect(c.query(`DELETE FROM "AuditCheckpoint" WHERE id = $1`, [cp.id])).rejects.toThrow(/append-only/);
    // A held event changed after the purge is still named.
    const h = await db().auditEvent.findFirstOrThrow({ where: { tenantId: es.id, traceId: held }, orderBy: { seq: "asc" } });
    await c.query(`ALTER TABLE "AuditEvent" DISABLE TRIGGER "AuditEvent_append_only"`);
    await c.query(`UPDATE "AuditEvent" SET outcome = 'not_found' WHERE id = $1`, [h.id]);
    expect(await verifyAuditChain(es.id)).toMatchObject({ ok: false, brokenAtSeq: h.seq });
    // …and a broken chain is not purged.
    expect(await purgeAuditEvents(es.id, asOf)).toMatchObject({ status: "refused_broken_chain", brokenAtSeq: h.seq });
    await c.query(`UPDATE "AuditEvent" SET outcome = $2 WHERE id = $1`, [h.id, h.outcome]);
    await c.query(`ALTER TABLE "AuditEvent" ENABLE TRIGGER "AuditEvent_append_only"`);
    await c.end();
    expect(await verifyAuditChain(es.id)).toMatchObject({ ok: true });
  });
});

describe("evidence pack", () => {
  it("a passkey-approved proposal's pack verifies offline; one changed byte fails, also through npm run evidence:verify", async () => {
    const { proposal } = await preparedProposal(ana, 3_210);
    const reviewer = await actorOf(ES, "reviewer");
    const key = createSoftAuthenticator(webAuthnRelyingParty());
    await registerPasskey(reviewer, { response: key.register((await createRegistrationOptions(reviewer)).challenge), name: "audit test key" });
    const options = await createApprovalOptions(reviewer, { proposalId: proposal.id, hash: proposal.hash });
    await approveProposal(reviewer, { proposalId: proposal.id, hash: proposal.hash, stepUp: { method: "passkey", response: key.authenticate(options.challenge) } });

    const auditor = await actorOf(ES, "auditor");
    const trace = await getAuditTrace(auditor, proposal.traceId);
    expect(trace.proposals[0]!.approvals[0]).toMatchObject({ authMethod: "passkey", passkeyCheck: "verified" });

    const { body } = await buildEvidencePack(auditor, proposal.id);
    const pack = JSON.parse(body) as { approvals: { passkey: unknown }[]; events: unknown[]; chain: { segment: unknown[] } };
    expect(pack.approvals[0]!.passkey).not.toBeNull();
    expect(pack.events.length).toBeGreaterThanOrEqual(3);
    const verdict = await verifyEvidencePack(body);
    expect(verdict.checks.filter((c) => !c.ok)).toEqual([]);
    expect(verdict.checks.map((c) => c.name)).toContain(`approval ${(JSON.parse(body) as { approvals: { id: string }[] }).approvals[0]!.id} passkey signature`);

    // One byte inside the proposal hash, the signature, an event's data, and the last bytes.
    const positions = [body.indexOf(proposal.hash) + 10, body.indexOf('"signature":"') + 20, body.indexOf('"data":') + 9, body.length - 3];
    for (const at of positions) expect((await verifyEvidencePack(flipByte(body, at))).ok, `byte ${at}`).toBe(false);

    const dir = mkdtempSync(join(tmpdir(), "evidence-"));
    writeFileSync(join(dir, "ok.json"), body);
    writeFileSync(join(dir, "bad.json"), flipByte(body, positions[0]!));
    const run = (f: string) => spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/evidence-verify.ts", join(dir, f)], { env: { NODE_ENV: "test", PATH: process.env.PATH }, encoding: "utf8", timeout: 60_000 });
    const ok = run("ok.json");
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toContain("VERIFIED");
    const bad = run("bad.json");
    expect(bad.status, bad.stdout).toBe(1);

    // Building a pack is audited; other tenants and other roles get nothing.
    expect(await db().auditEvent.count({ where: { action: "audit:evidence_pack", proposalId: proposal.id } })).toBe(1);
    await expect(buildEvidencePack(await actorOf(US, "auditor"), proposal.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(buildEvidencePack(await actorOf(ES, "ops"), proposal.id)).rejects.toMatchObject({ code: "permission_denied" });
  });

  it("a password-approved proposal's pack verifies too", async () => {
    const { proposal } = await approvedProposal(ana, 1_999);
    const { body } = await buildEvidencePack(await actorOf(ES, "admin"), proposal.id);
    expect((await verifyEvidencePack(body)).ok).toBe(true);
  });
});
