import { readFileSync } from "node:fs";
import type pg from "pg";
import { withPgClient } from "../../lib/server/db/pg-client";
import { createFreshOrder } from "../../scripts/lib/fresh-order";

/** The database of the server under test (its start script writes the URL for us). */
export function withDb<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  return withPgClient(readFileSync(".data/e2e-database-url", "utf8").trim(), fn);
}

/**
 * A fresh paid card order of the tenant's first demo customer (the one `agent:demo` acts for), its
 * payment intent registered with the server's sandbox provider, so a spec never depends on demo orders
 * that another spec may already have refunded. Returns the order number to pass to proposeRefund (support/gateway.ts).
 */
export function freshOrder(tenantSlug: string, amountMinor: number): Promise<string> {
  return createFreshOrder({
    databaseUrl: readFileSync(".data/e2e-database-url", "utf8").trim(),
    sandboxUrl: readFileSync(".data/e2e-sandbox-url", "utf8").trim(),
    tenantSlug,
    amountMinor,
  });
}
