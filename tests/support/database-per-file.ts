// Gives each integration test file its own database, copied from the migrated and seeded template.
import { randomUUID } from "node:crypto";
import { afterAll, inject } from "vitest";
import { withPgClient } from "../../lib/server/db/pg-client";
import { releaseDatabaseHandles } from "./process-resources";

const serverUrl = inject("serverUrl");
const name = `t_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
await withPgClient(serverUrl, (admin) => admin.query(`CREATE DATABASE "${name}" TEMPLATE template_app`));

process.env.DATABASE_URL = serverUrl.replace(/\/postgres$/, `/${name}`);
process.env.APP_MODE = "demo";
// Refundable amounts from the ledger alone unless a test starts a provider and turns live reads on
// (tests/integration/systems-of-record.test.ts): most files run without a payment provider process.
process.env.PAYMENT_PROVIDER_LIVE_READS = "0";

afterAll(async () => {
  await releaseDatabaseHandles();
  await withPgClient(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
});
