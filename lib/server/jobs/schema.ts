import "server-only";
import { runMigrations } from "graphile-worker";
import { jobLogger } from "./logger";

/** graphile-worker's own schema (tables, add_job()); it lives beside the app's tables in the same database. */
export const JOB_SCHEMA = "graphile_worker";

/**
 * Installs or upgrades graphile-worker's schema. Idempotent and safe to run from several processes at
 * once (graphile-worker migrates under an advisory lock). It must have run before the first
 * `enqueueJob`: `npm start` calls it after the app's migrations, and every worker calls it on boot.
 */
export async function prepareJobQueue(databaseUrl: string): Promise<void> {
  await runMigrations({ connectionString: databaseUrl, schema: JOB_SCHEMA, logger: jobLogger });
}
