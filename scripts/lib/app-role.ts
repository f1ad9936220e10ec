// Least privilege in PostgreSQL (docs/database-roles.md). Migrations run as the owner of the schema
// (DATABASE_URL); the app and the worker connect as a runtime role that owns nothing:
//   - no DDL: no CREATE on the schemas, owns no table, so no ALTER / DROP;
//   - no TRUNCATE, REFERENCES or TRIGGER on any table;
//   - SELECT and INSERT only on the append-only tables (APPEND_ONLY_TABLES): no UPDATE, no DELETE;
//   - SELECT, INSERT, UPDATE, DELETE on every other table of the app's schema, and what graphile-worker
//     needs in its own schema.
// The grants are generic and re-applied after the migrations at every start, so a table added by a later
// migration is covered without a change here; a new append-only table only has to be listed below.
import { openPgClient } from "../../lib/server/db/pg-client";

/** Name of the runtime role `npm start` creates on the embedded PostgreSQL. */
export const APP_ROLE = "app_runtime";

/**
 * Tables the runtime role may read and append to, never change or delete from (the audit evidence).
 * Each also carries a BEFORE TRUNCATE trigger (audit_refuse_truncate) and its own row triggers.
 */
export const APPEND_ONLY_TABLES = [
  "AuditEvent",
  "AuditLeaf",
  "AuditTreeNode",
  "AuditSignedCheckpoint",
  "AuditPurge",
  "AuditChainCheck",
  "AuditCosignature",
] as const;

const SCHEMA = "public";
const JOB_SCHEMA = "graphile_worker";

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

export type AppRoleOptions = {
  /** The role to grant to (default APP_ROLE). */
  role?: string;
  /** Create the role if missing and set this password (embedded PostgreSQL). Omit for a role an administrator made. */
  password?: string;
};

/**
 * Creates (embedded) or just grants to the runtime role, as the owner at `ownerUrl`. Idempotent: runs after
 * the migrations at every start.
 */
export async function ensureAppRole(ownerUrl: string, options: AppRoleOptions = {}): Promise<void> {
  const role = ident(options.role ?? APP_ROLE);
  const client = await openPgClient(ownerUrl);
  try {
    const { rows } = await client.query<{ db: string; owner: string }>(
      "SELECT current_database() AS db, current_user AS owner",
    );
    const db = ident(rows[0]!.db);
    const owner = ident(rows[0]!.owner);
    const exists =
      (await client.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [options.role ?? APP_ROLE])).rowCount === 1;
    await client.query("BEGIN");
    // Concurrent starts on one cluster (tests) would race on CREATE ROLE.
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended('app-role', 0))");
    if (options.password !== undefined) {
      const stillMissing =
        (await client.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [options.role ?? APP_ROLE])).rowCount === 0;
      if (!exists && stillMissing)
        await client.query(`CREATE ROLE ${role} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS NOINHERIT`);
      await client.query(
        `ALTER ROLE ${role} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS PASSWORD ${literal(options.password)}`,
      );
    }
    const statements = [
      `REVOKE ALL ON DATABASE ${db} FROM ${role}`,
      `GRANT CONNECT ON DATABASE ${db} TO ${role}`,
      // No temporary tables either (PUBLIC has TEMPORARY by default).
      `REVOKE TEMPORARY ON DATABASE ${db} FROM PUBLIC`,
      // The app's schema: use, never create in it.
      `REVOKE ALL ON SCHEMA ${SCHEMA} FROM ${role}`,
      `REVOKE CREATE ON SCHEMA ${SCHEMA} FROM PUBLIC`,
      `GRANT USAGE ON SCHEMA ${SCHEMA} TO ${role}`,
      `REVOKE ALL ON ALL TABLES IN SCHEMA ${SCHEMA} FROM ${role}`,
      `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${SCHEMA} TO ${role}`,
      ...APPEND_ONLY_TABLES.map((t) => `REVOKE UPDATE, DELETE ON ${ident(t)} FROM ${role}`),
      `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${SCHEMA} TO ${role}`,
      `GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${SCHEMA} TO ${role}`,
      // Tables a later migration creates (as this owner) are usable before the next start re-applies
      // the above; the append-only revokes follow at that start, which runs right after the migrations.
      `ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA ${SCHEMA} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${role}`,
      `ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA ${SCHEMA} GRANT USAGE, SELECT ON SEQUENCES TO ${role}`,
    ];
    const jobSchema =
      (await client.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [JOB_SCHEMA])).rowCount === 1;
    if (jobSchema) {
      // graphile-worker's own schema (created and migrated by the owner: lib/server/jobs/schema.ts).
      statements.push(
        `REVOKE ALL ON SCHEMA ${JOB_SCHEMA} FROM ${role}`,
        `GRANT USAGE ON SCHEMA ${JOB_SCHEMA} TO ${role}`,
        `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${JOB_SCHEMA} TO ${role}`,
        `GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${JOB_SCHEMA} TO ${role}`,
        `GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${JOB_SCHEMA} TO ${role}`,
      );
    }
    if (jobSchema) {
      // graphile-worker turns row-level security on for its private tables with no policy, which leaves
      // them to their owner: let the runtime role through (a policy per table, made once).
      const { rows: secured } = await client.query<{ table: string; has: boolean }>(
        `SELECT c.relname AS table,
                EXISTS (SELECT 1 FROM pg_policies p WHERE p.schemaname = n.nspname AND p.tablename = c.relname AND p.policyname = $2) AS has
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND c.relrowsecurity`,
        [JOB_SCHEMA, `${options.role ?? APP_ROLE}_access`],
      );
      for (const t of secured.filter((s) => !s.has)) {
        statements.push(
          `CREATE POLICY ${ident(`${options.role ?? APP_ROLE}_access`)} ON ${JOB_SCHEMA}.${ident(t.table)} TO ${role} USING (true) WITH CHECK (true)`,
        );
      }
    }
    for (const sql of statements) await client.query(sql);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/** `url` with the runtime role's user name and password. */
export function appRoleUrl(ownerUrl: string, password: string, role = APP_ROLE): string {
  const url = new URL(ownerUrl);
  url.username = encodeURIComponent(role);
  url.password = encodeURIComponent(password);
  return url.toString();
}
