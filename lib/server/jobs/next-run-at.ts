import "server-only";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";

/**
 * When graphile-worker runs each waiting job next, by job key (the retry backoff lives in its job table, not in
 * the outbox rows): the "next attempt" column of the delivery histories in Admin. Callers pass keys built from
 * ids already scoped to the admin's tenant.
 */
export async function nextRunAtByJobKey(keys: string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = (
    await sql<{
      key: string;
      runAt: Date;
    }>`SELECT key, run_at AS "runAt" FROM graphile_worker._private_jobs WHERE key IN (${sql.join(keys)})`.execute(
      sqlPool(),
    )
  ).rows;
  return new Map(rows.map((r) => [r.key, r.runAt.toISOString()]));
}
