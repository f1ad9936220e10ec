// Applies prisma/migrations to a database, writing Prisma's own `_prisma_migrations` table.
//
// Why not `prisma migrate deploy`: the Prisma CLI must download a native engine first, which our
// machines cannot reach. This does what deploy does for a linear history (run each pending
// migration.sql in order, record name + SHA-256 checksum) with the same table and format, so the
// native `prisma migrate deploy` keeps working on the same database wherever it can be installed.
// A PostgreSQL advisory lock (the same key Prisma uses) makes concurrent starts of several app
// instances safe: one applies, the others wait and then find nothing to do.
import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { openPgClient } from "../../lib/server/db/pg-client";

export const MIGRATIONS_DIR = join(process.cwd(), "prisma", "migrations");
const PRISMA_ADVISORY_LOCK = 72707369;

export type MigrationOnDisk = { name: string; sql: string; checksum: string };

export function readMigrations(dir = MIGRATIONS_DIR): MigrationOnDisk[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export type ApplyResult = { applied: string[]; alreadyApplied: string[] };

export async function applyMigrations(databaseUrl: string, dir = MIGRATIONS_DIR): Promise<ApplyResult> {
  const migrations = readMigrations(dir);
  const client = await openPgClient(databaseUrl);
  try {
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_ADVISORY_LOCK]);
    await client.query(CREATE_TABLE);
    const { rows } = await client.query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      rolled_back_at: Date | null;
    }>(`SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at`);
    const failed = rows.find((r) => r.finished_at === null && r.rolled_back_at === null);
    if (failed) {
      throw new Error(
        `migration ${failed.migration_name} failed earlier and was not resolved; fix the database, then mark it rolled back`,
      );
    }
    const done = new Map(rows.filter((r) => r.finished_at !== null).map((r) => [r.migration_name, r.checksum]));
    const applied: string[] = [];
    const alreadyApplied: string[] = [];
    for (const m of migrations) {
      const previous = done.get(m.name);
      if (previous !== undefined) {
        if (previous !== m.checksum) {
          throw new Error(
            `migration ${m.name} was changed after it was applied (checksum differs); add a new migration instead`,
          );
        }
        alreadyApplied.push(m.name);
        continue;
      }
      const id = randomUUID();
      await client.query("BEGIN");
      try {
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)`,
          [id, m.checksum, m.name],
        );
        await client.query(m.sql);
        await client.query(
          `UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`,
          [id],
        );
        await client.query("COMMIT");
        applied.push(m.name);
      } catch (error) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${m.name} failed: ${error instanceof Error ? error.message : String(error)}`, {
          cause: error,
        });
      }
    }
    return { applied, alreadyApplied };
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_ADVISORY_LOCK]).catch(() => undefined);
    await client.end();
  }
}
