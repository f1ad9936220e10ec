// Gives each integration test file its own database, copied from the migrated and seeded template.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, inject } from "vitest";

const serverUrl = inject("serverUrl");
const name = `t_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`CREATE DATABASE "${name}" TEMPLATE template_app`);
await admin.end();

process.env.DATABASE_URL = serverUrl.replace(/\/postgres$/, `/${name}`);
process.env.APP_MODE = "demo";
// Refundable amounts from the ledger alone unless a test starts a provider and turns live reads on
// (tests/integration/systems-of-record.test.ts): most files run without a payment provider process.
process.env.PAYMENT_PROVIDER_LIVE_READS = "0";

afterAll(async () => {
  const g = globalThis as unknown as { prisma?: { $disconnect(): Promise<void> } };
  await g.prisma?.$disconnect();
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await c.end();
});
