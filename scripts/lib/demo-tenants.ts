// Demo tenants in a database a production process is about to serve (docs/operations.md "Demo data"): the demo's
// logins have published passwords, so a production start refuses to serve them unless ALLOW_DEMO_TENANTS=1.
import { withPgClient } from "../../lib/server/db/pg-client";

export async function demoTenantSlugs(databaseUrl: string): Promise<string[]> {
  return withPgClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ slug: string }>(`SELECT "slug" FROM "Tenant" WHERE "demo" ORDER BY "slug"`);
    return rows.map((r) => r.slug);
  });
}
