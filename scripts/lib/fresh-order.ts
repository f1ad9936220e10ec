// A fresh paid card order of a tenant's first demo customer, its payment intent registered with the
// instance's sandbox provider: browser specs and `npm run attack` use one each, so they never depend on demo
// orders that another run may already have refunded.
import pg from "pg";
import { demoPaymentProvider } from "../../lib/config/demo-payment-provider";
import { customerId, demoTenants } from "./demo-data";

let orderSeq = 0;

export async function createFreshOrder(opts: {
  databaseUrl: string;
  sandboxUrl: string;
  tenantSlug: string;
  amountMinor: number;
  prefix?: string;
}): Promise<string> {
  const number = `${opts.prefix ?? "E2E"}-${Date.now().toString(36)}-${++orderSeq}`;
  const ref = `pi_${(opts.prefix ?? "e2e").toLowerCase()}_${number.replace(/-/g, "_")}`;
  const first = demoTenants.find((d) => d.slug === opts.tenantSlug)?.customers[0];
  if (!first) throw new Error(`no demo customer in ${opts.tenantSlug}`);
  const client = new pg.Client({ connectionString: opts.databaseUrl });
  await client.connect();
  let currency: string;
  try {
    const t = (await client.query<{ id: string; currency: string }>(`SELECT id, currency FROM "Tenant" WHERE slug = $1`, [opts.tenantSlug])).rows[0]!;
    const customer = (
      await client.query<{ id: string; name: string }>(`SELECT id, name FROM "Customer" WHERE id = $1`, [customerId(opts.tenantSlug, first.key)])
    ).rows[0]!;
    const order = (
      await client.query<{ id: string }>(
        `INSERT INTO "Order" (id, "tenantId", number, "customerId", currency, "totalMinor", "capturedMinor", status, items, "updatedAt")
         VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $5, 'paid', '[]', now()) RETURNING id`,
        [t.id, number, customer.id, t.currency, opts.amountMinor],
      )
    ).rows[0]!;
    await client.query(
      `INSERT INTO "Payment" (id, "tenantId", "orderId", method, "providerPaymentRef", "holderName", display, "amountMinor", currency)
       VALUES (gen_random_uuid(), $1, $2, 'card', $3, $4, 'Visa •••• 4242', $5, $6)`,
      [t.id, order.id, ref, customer.name, opts.amountMinor, t.currency],
    );
    currency = String(t.currency).trim();
  } finally {
    await client.end();
  }
  const res = await fetch(`${opts.sandboxUrl}/__control/payment_intents`, {
    method: "POST",
    headers: { authorization: `Bearer ${demoPaymentProvider.controlToken}`, "content-type": "application/json" },
    body: JSON.stringify({ id: ref, amount: opts.amountMinor, currency }),
  });
  if (!res.ok) throw new Error(`sandbox payment intent: ${res.status} ${await res.text()}`);
  return number;
}
