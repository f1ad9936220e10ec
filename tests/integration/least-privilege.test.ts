// Least privilege in PostgreSQL: the runtime role the app and the worker use owns nothing, cannot run DDL,
// and cannot UPDATE, DELETE or TRUNCATE the audit evidence; TRUNCATE is refused even to the owner. The
// app's own use cases (an audit purge among them) still work under that role.
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_ROLE, APPEND_ONLY_TABLES, appRoleUrl, ensureAppRole } from "../../scripts/lib/app-role";
import { prepareJobQueue } from "@/lib/server/jobs/schema";
import { pgClient } from "@/lib/server/db/pg-client";
import { sql } from "@/lib/server/db/sql";

const ownerUrl = process.env.DATABASE_URL!;
const password = randomBytes(18).toString("base64url");
let app: pg.Client;
let owner: pg.Client;

beforeAll(async () => {
  await prepareJobQueue(ownerUrl);
  await ensureAppRole(ownerUrl, { password });
  await ensureAppRole(ownerUrl, { password }); // idempotent: a second start changes nothing
  app = pgClient(appRoleUrl(ownerUrl, password));
  owner = pgClient(ownerUrl);
  await Promise.all([app.connect(), owner.connect()]);
});
afterAll(async () => {
  await app?.end();
  await owner?.end();
});

/** The SQLSTATE a statement fails with, or "ok". Each statement runs in its own transaction, rolled back. */
async function attempt(client: pg.Client, sql: string, params: unknown[] = []): Promise<string> {
  await client.query("BEGIN");
  try {
    await client.query(sql, params);
    return "ok";
  } catch (error) {
    return (error as { code?: string }).code ?? "error";
  } finally {
    await client.query("ROLLBACK");
  }
}
const DENIED = "42501"; // insufficient_privilege (permission denied / must be owner)

describe("the runtime role", () => {
  it("is who the app connects as, and owns nothing", async () => {
    const { rows } = await app.query<{ who: string; owned: number; superuser: boolean }>(
      `SELECT current_user AS who, rolsuper AS superuser,
              (SELECT count(*)::int FROM pg_class c WHERE c.relowner = r.oid) + (SELECT count(*)::int FROM pg_namespace n WHERE n.nspowner = r.oid) AS owned
         FROM pg_roles r WHERE r.rolname = current_user`,
    );
    expect(rows[0]).toEqual({ who: APP_ROLE, superuser: false, owned: 0 });
  });

  it.each(APPEND_ONLY_TABLES)("may read %s but not UPDATE, DELETE or TRUNCATE it", async (table) => {
    expect(await attempt(app, `SELECT count(*) FROM "${table}"`)).toBe("ok");
    const column = ["AuditLeaf", "AuditTreeNode", "AuditSignedCheckpoint", "AuditCosignature"].includes(table)
      ? `"logId"`
      : "id"; // tables keyed by log
    expect(await attempt(app, `UPDATE "${table}" SET ${column} = ${column}`)).toBe(DENIED);
    expect(await attempt(app, `DELETE FROM "${table}"`)).toBe(DENIED);
    expect(await attempt(app, `TRUNCATE "${table}"`)).toBe(DENIED);
  });

  it("runs no DDL: CREATE TABLE, ALTER, DROP, CREATE FUNCTION, and no TRUNCATE of ordinary tables", async () => {
    expect(await attempt(app, `CREATE TABLE "Intruder" (id int)`)).toBe(DENIED);
    expect(await attempt(app, `CREATE TABLE graphile_worker."Intruder" (id int)`)).toBe(DENIED);
    expect(await attempt(app, `ALTER TABLE "Proposal" ADD COLUMN intruder int`)).toBe(DENIED);
    expect(await attempt(app, `DROP TABLE "Tenant" CASCADE`)).toBe(DENIED);
    expect(await attempt(app, `CREATE FUNCTION intruder() RETURNS int LANGUAGE sql AS 'SELECT 1'`)).toBe(DENIED);
    expect(await attempt(app, `TRUNCATE "Proposal" CASCADE`)).toBe(DENIED);
    expect(await attempt(app, `ALTER TABLE "AuditEvent" DISABLE TRIGGER ALL`)).toBe(DENIED);
    expect(await attempt(app, `CREATE TEMPORARY TABLE intruder (id int)`)).toBe(DENIED);
  });

  it("still does the app's work: reads and writes ordinary tables, enqueues jobs", async () => {
    expect(await attempt(app, `UPDATE "Tenant" SET name = name`)).toBe("ok");
    expect(await attempt(app, `SELECT count(*) FROM "Proposal"`)).toBe("ok");
    expect(await attempt(app, `SELECT graphile_worker.add_job('least-privilege-probe', '{}'::json)`)).toBe("ok");
    // A worker's liveness (lib/server/jobs/worker-liveness.ts): record its lock holders, free a dead one's jobs.
    expect(await attempt(app, `INSERT INTO "JobWorker" ("workerId", "instanceKey") VALUES ('pool-probe', 1)`)).toBe(
      "ok",
    );
    // (A session lock outlives the ROLLBACK: given back at once.)
    expect(
      await attempt(
        app,
        `SELECT pg_try_advisory_lock(hashtext('job-worker-liveness'), 1), pg_advisory_unlock(hashtext('job-worker-liveness'), 1)`,
      ),
    ).toBe("ok");
    expect(await attempt(app, `SELECT graphile_worker.force_unlock_workers(ARRAY['pool-probe'])`)).toBe("ok");
    expect(await attempt(app, `DELETE FROM "JobWorker" WHERE "instanceKey" = 1`)).toBe("ok");
  });
});

describe("the audit tables", () => {
  it.each(APPEND_ONLY_TABLES)("refuse TRUNCATE even to the owner (%s)", async (table) => {
    await owner.query("BEGIN");
    try {
      await expect(owner.query(`TRUNCATE "${table}" CASCADE`)).rejects.toThrow(/append-only \(TRUNCATE refused\)/);
    } finally {
      await owner.query("ROLLBACK");
    }
  });
});

describe("the app's use cases under the runtime role", () => {
  it("purge old audit events through the owner's function and leave a verifiable chain", async () => {
    process.env.DATABASE_URL = appRoleUrl(ownerUrl, password); // the data layer connects as the app does
    const { db } = await import("@/lib/server/db/client");
    const { sqlPool } = await import("@/lib/server/db/pg");
    const { purgeAuditEvents } = await import("@/lib/server/audit/purge-audit-events");
    const { verifyAuditChain } = await import("@/lib/server/audit/verify-chain");
    const [me] = (await sql<{ who: string }>`SELECT current_user AS who`.execute(sqlPool())).rows;
    expect(me?.who).toBe(APP_ROLE);
    const { anthropicCall, ana, ES, freshTrace, headersFor, send, tokenFor } = await import("./gateway-support");
    const token = await tokenFor(ES, ana);
    for (let i = 0; i < 3; i++)
      expect(
        (
          await send(
            anthropicCall("lookup_order", { order_id: "ORD-1001" }),
            headersFor({ token, trace: freshTrace() }),
          )
        ).status,
      ).toBe(200);
    const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: ES }, select: { id: true } });
    // The worker's sequencer integrates them under the same role (only leaves of the tree are purged).
    const { integratePending } = await import("@/lib/server/audit/sequencer");
    expect(await integratePending()).toBeGreaterThan(0);
    const result = await purgeAuditEvents(tenant.id, new Date(Date.now() + 3650 * 86_400_000));
    expect(result.status).toBe("purged");
    expect(result.status === "purged" && result.purged).toBeGreaterThan(0);
    expect((await verifyAuditChain(tenant.id)).ok).toBe(true);
    // The direct way stays closed.
    await expect(
      sql`DELETE FROM "AuditEvent" WHERE "tenantId" = ${tenant.id}::uuid`.execute(sqlPool()),
    ).rejects.toThrow(/permission denied/);
  });

  it("prepares a refund on the gateway's pg transaction as the runtime role (one pool: pg and Prisma connect alike)", async () => {
    const { sqlPool } = await import("@/lib/server/db/pg");
    const [me] = (await sql<{ who: string }>`SELECT current_user AS who`.execute(sqlPool())).rows;
    expect(me?.who).toBe(APP_ROLE);
    const { preparedForFreshOrder } = await import("./proposal-support");
    const { proposal } = await preparedForFreshOrder(1_500, { prefix: "LP" });
    expect(proposal.status).toBe("pending_approval");
  });
});
