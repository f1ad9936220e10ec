import { readFileSync } from "node:fs";
import pg from "pg";
import { customerId, demoTenants } from "../../scripts/lib/demo-data";

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

let orderSeq = 0;
/**
 * A fresh paid card order of the tenant's first demo customer (the one `agent:demo` acts for), its
 * payment intent registered with the server's sandbox provider, so a spec never depends on demo orders
 * that another spec may already have refunded. Returns the order number to pass to agent:demo.
 */
export async function freshOrder(tenantSlug: string, amountMinor: number): Promise<string> {
  const number = `E2E-${Date.now().toString(36)}-${++orderSeq}`;
  const ref = `pi_e2e_${number.replace(/-/g, "_")}`;
  const currency = await withDb(async (db) => {
    const t = (await db.query(`SELECT id, currency FROM "Tenant" WHERE slug = $1`, [tenantSlug])).rows[0];
    const first = demoTenants.find((d) => d.slug === tenantSlug)?.customers[0];
    if (!first) throw new Error(`no demo customer in ${tenantSlug}`);
    const customer = (await db.query(`SELECT id, name FROM "Customer" WHERE id = $1`, [customerId(tenantSlug, first.key)])).rows[0];
    const order = (await db.query(
      `INSERT INTO "Order" (id, "tenantId", number, "customerId", currency, "totalMinor", "capturedMinor", status, items, "updatedAt")
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $5, 'paid', '[]', now()) RETURNING id`,
      [t.id, number, customer.id, t.currency, amountMinor],
    )).rows[0];
    await db.query(
      `INSERT INTO "Payment" (id, "tenantId", "orderId", method, "providerPaymentRef", "holderName", display, "amountMinor", currency)
       VALUES (gen_random_uuid(), $1, $2, 'card', $3, $4, 'Visa •••• 4242', $5, $6)`,
      [t.id, order.id, ref, customer.name, amountMinor, t.currency],
    );
    return String(t.currency).trim();
  });
  const sandboxUrl = readFileSync(".data/e2e-sandbox-url", "utf8").trim();
  const res = await fetch(`${sandboxUrl}/__control/payment_intents`, {
    method: "POST",
    headers: { authorization: "Bearer demo-sandbox-control-token", "content-type": "application/json" },
    body: JSON.stringify({ id: ref, amount: amountMinor, currency }),
  });
  if (!res.ok) throw new Error(`sandbox payment intent: ${res.status} ${await res.text()}`);
  return number;
}
