// A fresh paid card order of a tenant's first demo customer, its payment intent registered with the
// instance's sandbox provider: browser specs and `npm run attack` use one each, so they never depend on demo
// orders that another run may already have refunded. The rows come from the fixture factory (fixtures.ts).
import { demoPaymentProvider } from "../../lib/config/demo-payment-provider";
import { customerId, demoTenants } from "./demo-data";
import { createPaidOrder, fixtureOrderNumber } from "./fixtures";
import { prismaFor } from "./prisma";

export async function createFreshOrder(opts: {
  databaseUrl: string;
  sandboxUrl: string;
  tenantSlug: string;
  amountMinor: number;
  prefix?: string;
}): Promise<string> {
  const prefix = opts.prefix ?? "E2E";
  const number = fixtureOrderNumber(prefix);
  const paymentRef = `pi_${prefix.toLowerCase()}_${number.replace(/-/g, "_")}`;
  const first = demoTenants.find((d) => d.slug === opts.tenantSlug)?.customers[0];
  if (!first) throw new Error(`no demo customer in ${opts.tenantSlug}`);
  const db = prismaFor(opts.databaseUrl);
  let currency: string;
  try {
    const tenant = await db.tenant.findUniqueOrThrow({
      where: { slug: opts.tenantSlug },
      select: { id: true, currency: true },
    });
    const customer = await db.customer.findUniqueOrThrow({
      where: { tenantId_id: { tenantId: tenant.id, id: customerId(opts.tenantSlug, first.key) } },
      select: { id: true, name: true },
    });
    await createPaidOrder(db, tenant, {
      customerId: customer.id,
      amountMinor: opts.amountMinor,
      number,
      paymentRef,
      holderName: customer.name,
    });
    currency = tenant.currency.trim();
  } finally {
    await db.$disconnect();
  }
  const res = await fetch(`${opts.sandboxUrl}/__control/payment_intents`, {
    method: "POST",
    headers: { authorization: `Bearer ${demoPaymentProvider.controlToken}`, "content-type": "application/json" },
    body: JSON.stringify({ id: paymentRef, amount: opts.amountMinor, currency }),
  });
  if (!res.ok) throw new Error(`sandbox payment intent: ${res.status} ${await res.text()}`);
  return number;
}
