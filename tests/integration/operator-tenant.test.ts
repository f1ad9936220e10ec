// An operator's first steps on a database of their own (docs/operations.md): `npm run tenant:create` makes the
// tenant, policy v1, the first admin and a one-time setup link, audited; refusals exit 1 with the reason; the
// demo never goes into a database holding real tenants; a production start refuses a database with demo tenants.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes, randomUUID } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { hashSetupToken } from "@/lib/server/admin/setup-token";
import { openPgClient, withPgClient } from "@/lib/server/db/pg-client";
import { findFreePort } from "../../scripts/lib/embedded-postgres";

const serverUrl = inject("serverUrl");
const name = `op_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
const url = serverUrl.replace(/\/postgres$/, `/${name}`);
const secrets = {
  NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
  AUDIT_HMAC_KEY: randomBytes(32).toString("base64url"),
  AUDIT_SIGNING_KEY: randomBytes(32).toString("base64"),
};
let client: pg.Client;

beforeAll(async () => {
  await withPgClient(serverUrl, (admin) => admin.query(`CREATE DATABASE "${name}"`)); // empty: not the demo template
});
afterAll(async () => {
  await client?.end();
  await withPgClient(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
});

function script(file: string, args: string[], env: Record<string, string> = {}) {
  const full: Record<string, string | undefined> = {
    ...process.env,
    APP_MODE: "",
    DATABASE_URL: url,
    APP_URL: "https://gateway.acme.example",
    ...secrets,
    ...env,
  };
  delete full.E2E_LOG_FILE;
  return spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", `scripts/${file}`, ...args], {
    env: full as NodeJS.ProcessEnv,
    encoding: "utf8",
    timeout: 120_000,
  });
}
const acme = [
  "--slug",
  "acme",
  "--name",
  "Acme",
  "--currency",
  "eur",
  "--locale",
  "en",
  "--time-zone",
  "Europe/Berlin",
  "--admin-email",
  "Ada@Acme.example",
];

describe("npm run tenant:create", () => {
  it("creates the tenant, policy v1, the first admin and a one-time setup link, audited, on any DATABASE_URL", async () => {
    const res = script("tenant-create.ts", [...acme, "--admin-name", "Ada Lovelace"]);
    expect(res.stderr).toBe("");
    expect(res.status).toBe(0);
    const out = JSON.parse(res.stdout) as {
      tenant: { id: string; slug: string };
      admin: { id: string; email: string };
      setupUrl: string;
      expiresAt: string;
    };
    expect(out.tenant.slug).toBe("acme");
    expect(out.admin.email).toBe("ada@acme.example");
    expect(out.setupUrl).toMatch(/^https:\/\/gateway\.acme\.example\/setup\/[A-Za-z0-9_-]{43}$/);

    client = await openPgClient(url);
    const tenant = (await client.query(`SELECT * FROM "Tenant" WHERE "slug" = 'acme'`)).rows[0];
    expect(tenant).toMatchObject({
      id: out.tenant.id,
      name: "Acme",
      currency: "EUR",
      locale: "en",
      timeZone: "Europe/Berlin",
      demo: false,
      active: true,
      policyVersion: 1,
    });
    const policy = (
      await client.query(`SELECT "version", "status" FROM "PolicyVersion" WHERE "tenantId" = $1`, [tenant.id])
    ).rows;
    expect(policy).toEqual([{ version: 1, status: "active" }]);
    const staff = (
      await client.query(
        `SELECT "id", "email", "name", "roles"::text[] AS roles, "passwordHash" FROM "StaffUser" WHERE "tenantId" = $1`,
        [tenant.id],
      )
    ).rows;
    expect(staff).toEqual([
      { id: out.admin.id, email: "ada@acme.example", name: "Ada Lovelace", roles: ["admin"], passwordHash: null },
    ]);
    // The link is stored only as its hash, unused, valid 24 h.
    const token = out.setupUrl.split("/").pop()!;
    const links = (
      await client.query(
        `SELECT "tokenHash", "usedAt", "expiresAt", "createdById" FROM "StaffSetupToken" WHERE "staffUserId" = $1`,
        [out.admin.id],
      )
    ).rows;
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ tokenHash: hashSetupToken(token), usedAt: null, createdById: null });
    expect(Math.abs(new Date(links[0].expiresAt).getTime() - new Date(out.expiresAt).getTime())).toBeLessThan(1000);
    const events = (
      await client.query(
        `SELECT "actorType", "actorId", "action", "outcome", "data" FROM "AuditEvent" WHERE "tenantId" = $1`,
        [tenant.id],
      )
    ).rows;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actorType: "system",
      actorId: "operator",
      action: "operator:create_tenant",
      outcome: "ok",
    });
    expect(events[0].data.tenant).toMatchObject({ slug: "acme", currency: "EUR", timeZone: "Europe/Berlin" });
    // Personal data is fingerprinted in the audit trail; the link itself is never stored.
    expect(JSON.stringify(events[0])).not.toContain("ada@acme.example");
    expect(JSON.stringify(events[0])).not.toContain(token);
  });

  it("refuses an existing slug, a taken email and bad values with the reason (exit 1), writing nothing", async () => {
    const count = async () => Number((await client.query(`SELECT count(*) FROM "Tenant"`)).rows[0].count);
    const before = await count();
    const again = script(
      "tenant-create.ts",
      acme.map((a) => (a === "Ada@Acme.example" ? "other@acme.example" : a)),
    );
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('A tenant with the slug "acme" already exists.');
    expect(again.stdout).toBe("");
    const email = script(
      "tenant-create.ts",
      acme.map((a) => (a === "acme" ? "acme-two" : a)),
    );
    expect(email.status).toBe(1);
    expect(email.stderr).toContain("already belongs to an account");
    const zone = script(
      "tenant-create.ts",
      acme.map((a) => (a === "Europe/Berlin" ? "Mars/Olympus" : a === "acme" ? "acme-three" : a)),
    );
    expect(zone.status).toBe(1);
    expect(zone.stderr).toContain("timeZone: Not an IANA time zone");
    const currency = script(
      "tenant-create.ts",
      acme.map((a) => (a === "eur" ? "EURO" : a === "acme" ? "acme-four" : a)),
    );
    expect(currency.status).toBe(1);
    expect(currency.stderr).toContain("currency:");
    const missing = script("tenant-create.ts", ["--slug", "x1"]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("missing --name, --currency, --locale, --time-zone, --admin-email");
    expect(await count()).toBe(before);
  });

  it("refuses to run in production mode with weak secrets", () => {
    const res = script("tenant-create.ts", acme, { AUDIT_HMAC_KEY: "a".repeat(40) });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain("AUDIT_HMAC_KEY is not random enough: it repeats one character 40 times in a row");
  });
});

describe("demo isolation", () => {
  it("db:seed refuses a database holding a tenant of its own: exit 1, no demo tenant created", async () => {
    const res = script("db-seed.ts", []);
    expect(res.status).toBe(1);
    const lines = `${res.stdout}${res.stderr}`
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { msg: string });
    expect(lines.map((l) => l.msg).join("\n")).toContain(
      "refusing to load the demo: this database holds tenants that are not demo tenants (acme)",
    );
    const demo = (
      await client.query(`SELECT count(*) FROM "Tenant" WHERE "demo" OR "slug" IN ('tienda-es', 'shop-us')`)
    ).rows[0];
    expect(Number(demo.count)).toBe(0);
    expect(Number((await client.query(`SELECT count(*) FROM "StaffUser"`)).rows[0].count)).toBe(1);
  });

  it("a production start refuses to serve a database holding demo tenants, naming them", async () => {
    // This file's own copy of the demo template: demo tenants, marked.
    const demoUrl = process.env.DATABASE_URL!;
    const res = script("start.ts", ["--port", String(await findFreePort())], { DATABASE_URL: demoUrl });
    expect(res.status).toBe(1);
    const lines = res.stderr
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(lines.at(-1)).toMatchObject({ level: 50 });
    expect(lines.at(-1)!.msg).toContain("refusing to serve: this database holds demo tenants (shop-us, tienda-es)");
    expect(lines.at(-1)!.msg).toContain("ALLOW_DEMO_TENANTS=1");
  });
});

describe("tenant:create stays out of the demo's database", () => {
  it("without DATABASE_URL (the embedded demo database): refused with the reason and the production path, exit 1, nothing started or written", () => {
    const dir = join(tmpdir(), `never-created-${randomUUID()}`);
    const res = script("tenant-create.ts", acme, { DATABASE_URL: "", EMBEDDED_PG_DIR: dir });
    expect(res.status).toBe(1);
    expect(res.stdout).toBe("");
    expect(res.stderr).toContain("refusing: DATABASE_URL is not set");
    expect(res.stderr).toContain("npm run demo:reset` deletes it");
    expect(res.stderr).toContain("set DATABASE_URL to it and the production secrets");
    expect(res.stderr).toContain("npm run db:migrate");
    expect(existsSync(dir)).toBe(false); // the embedded PostgreSQL was never started
  });

  it("on a database holding the demo's tenants: refused naming them, exit 1, the database untouched", async () => {
    const demoUrl = process.env.DATABASE_URL!; // this file's own copy of the demo template
    const tenants = () =>
      withPgClient(demoUrl, async (c) => (await c.query(`SELECT "slug" FROM "Tenant" ORDER BY "slug"`)).rows);
    const before = await tenants();
    const res = script(
      "tenant-create.ts",
      acme.map((a) => (a === "acme" ? "acme-demo" : a === "Ada@Acme.example" ? "ada@acme-demo.example" : a)),
      { DATABASE_URL: demoUrl },
    );
    expect(res.status).toBe(1);
    expect(res.stdout).toBe("");
    expect(res.stderr).toContain("refusing: this database holds the demo's tenants (shop-us, tienda-es)");
    expect(res.stderr).toContain("npm run db:migrate");
    expect(await tenants()).toEqual(before);
  });

  it("without APP_URL or NEXTAUTH_URL the setup link points at the port the app runs on (PORT)", () => {
    const res = script(
      "tenant-create.ts",
      acme.map((a) => (a === "acme" ? "acme-port" : a === "Ada@Acme.example" ? "ada@acme-port.example" : a)),
      { APP_URL: "", NEXTAUTH_URL: "", PORT: "3123" },
    );
    expect(res.status).toBe(0);
    expect((JSON.parse(res.stdout) as { setupUrl: string }).setupUrl).toMatch(/^http:\/\/localhost:3123\/setup\//);
    expect(res.stderr).toContain("the setup link points at http://localhost:3123 (PORT)");
  });
});
