// Integration tests run against a real PostgreSQL: one throw-away embedded server for the run, a
// template database migrated and seeded with the demo once, and (database-per-file.ts) a fresh copy
// of that template for every test file, so files never see each other's rows.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runMigrations as installJobQueue } from "graphile-worker";
import type { TestProject } from "vitest/node";
import { withPgClient } from "../../lib/server/db/pg-client";
import { startEmbeddedPostgres } from "../../scripts/lib/embedded-postgres";
import { applyMigrations } from "../../scripts/lib/migrations";
import { seedDemo } from "../../scripts/lib/demo-data";
import { prismaFor } from "../../scripts/lib/prisma";

declare module "vitest" {
  export interface ProvidedContext {
    templateUrl: string;
    serverUrl: string;
  }
}

/**
 * INTEGRATION_PG_URL (a superuser URL to another server's `postgres` database, e.g. Debian's PostgreSQL 15 that
 * `npm test` starts with pg_createcluster): the run uses that server instead of the embedded one, so the same
 * tests prove every supported version (docs/operations.md).
 */
async function externalServer(url: string): Promise<{ url: string; stop: () => Promise<void> }> {
  await withPgClient(url, async (admin) => {
    await admin.query("DROP DATABASE IF EXISTS template_app WITH (FORCE)");
    await admin.query("CREATE DATABASE template_app");
  });
  return { url: url.replace(/\/postgres(\?.*)?$/, "/template_app"), stop: async () => undefined };
}

export default async function setup(project: TestProject) {
  const server = process.env.INTEGRATION_PG_URL
    ? await externalServer(process.env.INTEGRATION_PG_URL)
    : await startEmbeddedPostgres({
        dataDir: mkdtempSync(join(tmpdir(), "itest-pg-")),
        ephemeral: true,
        database: "template_app",
      });
  await applyMigrations(server.url);
  await installJobQueue({ connectionString: server.url }); // graphile-worker's schema, so use cases can enqueue jobs
  const prisma = prismaFor(server.url);
  await seedDemo(prisma);
  await prisma.$disconnect();
  // A template database must have no open connections while it is copied.
  await withPgClient(server.url.replace(/\/template_app$/, "/postgres"), (admin) =>
    admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'template_app' AND pid <> pg_backend_pid()",
    ),
  );
  project.provide("templateUrl", server.url);
  project.provide("serverUrl", server.url.replace(/\/template_app$/, "/postgres"));
  return async () => {
    await server.stop();
  };
}
