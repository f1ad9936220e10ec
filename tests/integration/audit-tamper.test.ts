// Tamper evidence against the real database: someone who can bypass the append-only trigger changes,
// deletes or reorders a row; the verifier names the first broken event, the periodic check stores the
// break (health: degraded) and writes an alert event; `npm run audit:verify` exits 1.
import { spawnSync } from "node:child_process";
import pg from "pg";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { verifyAuditChain } from "@/lib/server/audit/verify-chain";
import { verifyAllAuditChains } from "@/lib/server/audit/verify-all-chains";
import { checkHealth } from "@/lib/server/health/check-health";
import { runOnce } from "graphile-worker";
import { crontab, tasks } from "@/lib/server/jobs/tasks";
import { enqueueJob } from "@/lib/server/jobs/enqueue";
import { ES, ana, anthropicCall, freshTrace, headersFor, send, tokenFor } from "./gateway-support";

let tenantId: string;
type Row = Record<string, unknown> & { id: string; seq: number };

async function sql<T = Row>(text: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await c.connect();
  try {
    await c.query("BEGIN");
    await c.query(`ALTER TABLE "AuditEvent" DISABLE TRIGGER "AuditEvent_append_only"`);
    const r = await c.query(text, params);
    await c.query(`ALTER TABLE "AuditEvent" ENABLE TRIGGER "AuditEvent_append_only"`);
    await c.query("COMMIT");
    return r.rows as T[];
  } catch (e) {
    await c.query("ROLLBACK");
    throw e;
  } finally {
    await c.end();
  }
}

const rowAt = async (seq: number) => (await sql(`SELECT * FROM "AuditEvent" WHERE "tenantId" = $1 AND seq = $2`, [tenantId, seq]))[0]!;
async function restore(row: Row) {
  const cols = Object.keys(row);
  await sql(`DELETE FROM "AuditEvent" WHERE id = $1`, [row.id]);
  await sql(`INSERT INTO "AuditEvent" (${cols.map((c) => `"${c}"`).join(",")}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(",")})`, cols.map((c) => (c === "data" ? JSON.stringify(row[c]) : row[c])));
}

function auditVerifyCli() {
  return spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/audit-verify.ts"], { env: process.env, encoding: "utf8", timeout: 60_000 });
}

beforeAll(async () => {
  tenantId = (await db().tenant.findUniqueOrThrow({ where: { slug: ES } })).id;
  const token = await tokenFor(ES, ana);
  for (let i = 0; i < 6; i++) await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ token, trace: freshTrace() }));
});

afterEach(async () => {
  expect(await verifyAuditChain(tenantId)).toMatchObject({ ok: true });
});

describe("tamper evidence", () => {
  it("an untouched chain verifies, the stored check is ok and health is ok", async () => {
    expect(await verifyAuditChain(tenantId)).toMatchObject({ ok: true });
    const all = await verifyAllAuditChains("test");
    expect(all).toMatchObject({ ok: true, broken: null });
    expect(await checkHealth()).toMatchObject({ status: "ok", checks: { auditChain: "ok" } });
  });

  it("a changed row is named", async () => {
    const original = await rowAt(3);
    await sql(`UPDATE "AuditEvent" SET outcome = 'permission_denied' WHERE id = $1`, [original.id]);
    expect(await verifyAuditChain(tenantId)).toMatchObject({ ok: false, brokenAtSeq: 3, eventId: original.id, problem: "content does not match its hash" });
    await restore(original);
  });

  it("a deleted row is named at the next event; a deleted first row too", async () => {
    const third = await rowAt(3);
    await sql(`DELETE FROM "AuditEvent" WHERE id = $1`, [third.id]);
    expect(await verifyAuditChain(tenantId)).toMatchObject({ ok: false, brokenAtSeq: 4 });
    await restore(third);
    const first = await rowAt(1);
    await sql(`DELETE FROM "AuditEvent" WHERE id = $1`, [first.id]);
    expect(await verifyAuditChain(tenantId)).toMatchObject({ ok: false, brokenAtSeq: 2 });
    await restore(first);
  });

  it("reordered rows (seqs swapped) are named at the first of them", async () => {
    const [a, b] = [await rowAt(2), await rowAt(3)];
    await sql(`UPDATE "AuditEvent" SET seq = -1 WHERE id = $1`, [a.id]);
    await sql(`UPDATE "AuditEvent" SET seq = 2 WHERE id = $1`, [b.id]);
    await sql(`UPDATE "AuditEvent" SET seq = 3 WHERE id = $1`, [a.id]);
    expect(await verifyAuditChain(tenantId)).toMatchObject({ ok: false, brokenAtSeq: 2, eventId: b.id });
    await sql(`UPDATE "AuditEvent" SET seq = -1 WHERE id = $1`, [a.id]);
    await sql(`UPDATE "AuditEvent" SET seq = 3 WHERE id = $1`, [b.id]);
    await sql(`UPDATE "AuditEvent" SET seq = 2 WHERE id = $1`, [a.id]);
  });

  it("the periodic check stores the break (health degraded), writes an alert event, and audit:verify exits 1 naming it", async () => {
    const original = await rowAt(4);
    await sql(`UPDATE "AuditEvent" SET data = '{"forged":true}' WHERE id = $1`, [original.id]);
    const all = await verifyAllAuditChains("job:verify_audit_chain");
    expect(all).toMatchObject({ ok: false, broken: { tenantId, seq: 4, eventId: original.id } });
    expect(await checkHealth()).toMatchObject({ status: "degraded", checks: { database: "ok", auditChain: "broken" } });
    expect(await db().auditEvent.count({ where: { tenantId, action: "audit:chain_broken" } })).toBe(1);
    const cli = auditVerifyCli();
    expect(cli.status, cli.stderr + cli.stdout).toBe(1);
    expect(cli.stderr).toContain("BROKEN in tenant tienda-es at seq 4");
    await restore(original);
    const again = auditVerifyCli();
    expect(again.status, again.stderr + again.stdout).toBe(0);
    expect(await checkHealth()).toMatchObject({ status: "ok", checks: { auditChain: "ok" } });
  });

  it("the hourly verify_audit_chain job (the crontab's path) stores its result", async () => {
    expect(crontab).toMatch(/^\S+ \* \* \* \* verify_audit_chain /m);
    expect(crontab).toMatch(/ purge_audit_events /);
    const before = await db().auditChainCheck.count({ where: { source: "job:verify_audit_chain", ok: true } });
    await db().$transaction((tx) => enqueueJob(tx, "verify_audit_chain", {}));
    await runOnce({ connectionString: process.env.DATABASE_URL, taskList: tasks, noHandleSignals: true });
    expect(await db().auditChainCheck.count({ where: { source: "job:verify_audit_chain", ok: true } })).toBe(before + 1);
  });
});
