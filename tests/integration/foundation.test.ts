import { describe, expect, it } from "vitest";
import { applyMigrations, readMigrations } from "../../scripts/lib/migrations";
import { demoCredentials, demoTenants } from "../../scripts/lib/demo-data";
import { db } from "@/lib/server/db/client";
import { withPgClient } from "@/lib/server/db/pg-client";

const url = () => process.env.DATABASE_URL ?? "";

describe("migrations", () => {
  it("re-applying is a no-op and records every migration in Prisma's table with its SHA-256 checksum", async () => {
    const again = await applyMigrations(url());
    expect(again.applied).toEqual([]);
    const onDisk = readMigrations();
    expect(again.alreadyApplied).toEqual(onDisk.map((m) => m.name));
    const { rows } = await withPgClient(url(), (c) =>
      c.query(
        `SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`,
      ),
    );
    expect(rows.map((r) => [r.migration_name, r.checksum])).toEqual(onDisk.map((m) => [m.name, m.checksum]));
    for (const r of rows) {
      expect(r.finished_at).toBeInstanceOf(Date);
      expect(r.applied_steps_count).toBe(1);
    }
  });

  it("refuses a migration whose file changed after it was applied", async () => {
    await withPgClient(url(), async (c) => {
      const first = readMigrations()[0]!;
      await c.query(`UPDATE "_prisma_migrations" SET checksum = 'tampered' WHERE migration_name = $1`, [first.name]);
      await expect(applyMigrations(url())).rejects.toThrow(/was changed after it was applied/);
      await c.query(`UPDATE "_prisma_migrations" SET checksum = $2 WHERE migration_name = $1`, [
        first.name,
        first.checksum,
      ]);
    });
  });

  it("concurrent applies (several instances starting at once) serialize on the advisory lock", async () => {
    const results = await Promise.all([applyMigrations(url()), applyMigrations(url()), applyMigrations(url())]);
    for (const r of results) expect(r.applied).toEqual([]);
  });
});

describe("demo data", () => {
  it("loads both tenants with staff for every role, two reviewers each, and partly refunded orders", async () => {
    const tenants = await db().tenant.findMany({ include: { staff: true }, orderBy: { slug: "asc" } });
    expect(tenants.map((t) => [t.slug, t.currency]).sort()).toEqual([
      ["shop-us", "USD"],
      ["tienda-es", "EUR"],
    ]);
    for (const t of tenants) {
      const roles = new Set(t.staff.flatMap((s) => s.roles));
      expect([...roles].sort()).toEqual(["admin", "auditor", "ops", "reviewer"]);
      expect(t.staff.filter((s) => s.roles.includes("reviewer"))).toHaveLength(2);
      for (const s of t.staff) expect(s.passwordHash).toMatch(/^\$argon2id\$/);
    }
    const refunds = await db().refund.count();
    expect(refunds).toBeGreaterThan(0);
    const methods = await db().payment.groupBy({ by: ["method"], _count: true });
    expect(methods.map((m) => m.method).sort()).toEqual(["bank_transfer", "card"]);
  });

  it("demo:credentials matches the docs/design.md shape and the seeded rows", async () => {
    const creds = await demoCredentials();
    expect(creds.tenants).toHaveLength(demoTenants.length);
    for (const t of creds.tenants) {
      // No sandbox runs here, so no "paymentProvider" (tests/integration/demo-credentials.test.ts has one).
      expect(Object.keys(t).sort()).toEqual(["agents", "currency", "customers", "integrationKey", "slug", "staff"]);
      expect(typeof t.integrationKey).toBe("string");
      for (const s of t.staff) expect(Object.keys(s).sort()).toEqual(["email", "password", "roles"]);
      for (const a of t.agents) {
        expect(Object.keys(a).sort()).toEqual(["channel", "key", "tools"]);
        const { createHash } = await import("node:crypto");
        const row = await db().agentKey.findUnique({
          where: { keyHash: createHash("sha256").update(a.key).digest("hex") },
          include: { channel: true, tenant: true },
        });
        expect(row?.channel.slug).toBe(a.channel);
        expect(row?.tenant.slug).toBe(t.slug);
      }
      for (const c of t.customers) {
        expect(Object.keys(c).sort()).toEqual(["endUserToken", "id", "orderIds"]);
        expect(c.endUserToken.split(".")).toHaveLength(3);
        const orders = await db().order.findMany({ where: { customerId: c.id } });
        expect(orders.map((o) => o.number).sort()).toEqual([...c.orderIds].sort());
      }
    }
  });

  it("stores agent keys only as hashes", async () => {
    const creds = await demoCredentials();
    const keys = creds.tenants.flatMap((t) => t.agents.map((a) => a.key));
    const { rows } = await withPgClient(url(), (c) => c.query(`SELECT row_to_json(k)::text AS j FROM "AgentKey" k`));
    for (const r of rows) for (const k of keys) expect(r.j).not.toContain(k);
  });
});

describe("DATABASE_URL", () => {
  it("when set, the start migrates that server instead of starting the embedded one", async () => {
    const { mkdtempSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { startEmbeddedPostgres } = await import("../../scripts/lib/embedded-postgres");
    const { prepareDatabase } = await import("../../scripts/lib/database");
    const other = await startEmbeddedPostgres({
      dataDir: mkdtempSync(join(tmpdir(), "other-pg-")),
      ephemeral: true,
      database: "elsewhere",
    });
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = other.url;
    try {
      const first = await prepareDatabase({ demo: false });
      expect(first.embedded).toBeNull();
      expect(first.url).toBe(other.url);
      expect(first.applied).toEqual(readMigrations().map((m) => m.name));
      expect(first.seeded).toBe(false);
      const second = await prepareDatabase({ demo: true });
      expect(second.applied).toEqual([]);
      expect(second.seeded).toBe(true);
    } finally {
      process.env.DATABASE_URL = saved;
      await other.stop();
    }
  });
});
