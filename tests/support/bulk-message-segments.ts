// Fixtures of the bulk message kind (send_bulk_message): a segment an admin declared (written as the admin API writes
// it: version 1, a filter on a SKU no other test uses) and the orders that put customers in its audience.
import { randomUUID } from "node:crypto";
import { db } from "@/lib/server/db/client";

let seq = 0;

const tenantIdOf = async (slug: string) => (await db().tenant.findUniqueOrThrow({ where: { slug } })).id;

/** An order of `customer` with one line of `sku` (placed now, shipped to Spain): it puts the customer in the audience. */
export async function addBuyer(tenant: string, sku: string, customer: string): Promise<string> {
  const tenantId = await tenantIdOf(tenant);
  const order = await db().order.create({
    data: {
      tenantId,
      number: `ORD-BM${Date.now().toString(36)}${++seq}`.toUpperCase(),
      customerId: customer,
      currency: "EUR",
      totalMinor: 1_000,
      capturedMinor: 1_000,
      items: [{ sku, name: "Segment mug", quantity: 1, unitMinor: 1_000 }],
      shippingAddress: {
        name: "X",
        line1: "Calle 1",
        line2: null,
        city: "Madrid",
        postalCode: "28013",
        region: null,
        country: "ES",
      },
    },
  });
  return order.id;
}

/** `n` fresh customers of the tenant, each with an e-mail address (their ids, `bm-…`). */
export async function freshCustomers(tenant: string, n: number): Promise<string[]> {
  const tenantId = await tenantIdOf(tenant);
  const tag = `${Date.now().toString(36)}${++seq}`;
  const ids = Array.from({ length: n }, (_, i) => `bm-${tag}-${String(i).padStart(4, "0")}`);
  await db().customer.createMany({
    data: ids.map((id, i) => ({ id, tenantId, name: `Buyer ${i}`, email: `buyer.${tag}.${i}@example.com` })),
  });
  return ids;
}

/** A segment of the tenant (version 1) selecting the buyers of a fresh SKU, and those buyers' orders. */
export async function segmentOfBuyers(
  tenant: string,
  customers: string[],
): Promise<{ slug: string; sku: string; id: string }> {
  const tenantId = await tenantIdOf(tenant);
  const tag = `${Date.now().toString(36)}${++seq}`;
  const sku = `SEG-${tag}`.toUpperCase();
  const slug = `buyers-${tag}`;
  const segment = await db().segment.create({
    data: { id: randomUUID(), tenantId, slug, version: 1, name: `Buyers of ${sku}`, filter: { skus: [sku] } },
  });
  for (const c of customers) await addBuyer(tenant, sku, c);
  return { slug, sku, id: segment.id };
}
