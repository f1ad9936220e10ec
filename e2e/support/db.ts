import { readFileSync } from "node:fs";
import pg from "pg";
import { createFreshOrder } from "../../scripts/lib/fresh-order";

/** The database of the server under test (its start script writes the URL for us). */
export async function withDb<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const url = readFileSync(".data/e2e-database-url", "utf8").trim();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh paid card order of the tenant's first demo customer (the one `agent:demo` acts for), its
 * payment intent registered with the server's sandbox provider, so a spec never depends on demo orders
 * that another spec may already have refunded. Returns the order number to pass to agent:demo.
 */
export function freshOrder(tenantSlug: string, amountMinor: number): Promise<string> {
  return createFreshOrder({
    databaseUrl: readFileSync(".data/e2e-database-url", "utf8").trim(),
    sandboxUrl: readFileSync(".data/e2e-sandbox-url", "utf8").trim(),
    tenantSlug,
    amountMinor,
  });
}
