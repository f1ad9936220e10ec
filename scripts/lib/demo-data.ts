// The deterministic demo (docs/design.md "Demo data contract"): two tenants, staff for every role, customers
// with card and bank-transfer orders (some partly refunded), agent keys per channel. Every id, key and
// secret is derived from a fixed label, so a fresh start always yields the same data and credentials.
// These secrets are public: they only exist in demo mode.
import { createHash, createHmac } from "node:crypto";
import { SignJWT } from "jose";
import { endUserTokenAudience } from "../../lib/domain/agent-protocol";
import type { PrismaClient } from "../../lib/server/db/generated/client";
import { normalisePostalAddress, type PostalAddress } from "../../lib/domain/postal-address";
import { seedDemoSegment } from "./demo-segments";

const DEMO_SEED = "agent-approval-gateway-demo-v1";

export function derive(label: string): string {
  return createHmac("sha256", DEMO_SEED).update(label).digest("hex");
}

/** A stable UUID (v4 layout) for a label. */
export function demoUuid(label: string): string {
  const h = createHash("sha256")
    .update(DEMO_SEED + ":" + label)
    .digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/** Every tool the demo's web_support agent may call: each kind's (docs/action-kinds.md) and the shared ones. */
export const ALL_TOOLS = [
  "lookup_order",
  "prepare_refund",
  "get_refund_status",
  "prepare_address_change",
  "prepare_order_cancellation",
  "prepare_contact_change",
  "prepare_replacement_order",
  "prepare_bulk_message",
  "get_action_status",
  "create_support_ticket",
];
const CHANNELS = [
  { slug: "web_support", name: "Web support chat", tools: ALL_TOOLS },
  // A community chat agent may open tickets, never look at orders or money.
  { slug: "community_chat", name: "Community chat", tools: ["create_support_ticket"] },
];

type DemoOrder = {
  number: string;
  method: "card" | "bank_transfer";
  /** "manual": no connected provider holds it (paid by bank transfer): its refunds are manual payouts by ops. */
  provider?: "manual";
  display: string;
  totalMinor: number;
  refundedMinor?: number;
  items: { sku: string; name: string; quantity: number; unitMinor: number }[];
  /** Where the shop's fulfilment stands (default unfulfilled). */
  fulfilment?: "shipped" | "delivered";
};
/** Where a customer's orders ship to: [line1, city, postal code, region | null, country]. */
type DemoAddress = [string, string, string, string | null, string];
type DemoCustomer = { key: string; name: string; email: string; address: DemoAddress; orders: DemoOrder[] };
type DemoStaff = { email: string; name: string; roles: ("ops" | "reviewer" | "auditor" | "admin")[]; password: string };
type DemoTenant = {
  slug: string;
  name: string;
  currency: string;
  locale: string;
  timeZone: string;
  dualApprovalThresholdMinor: number;
  staff: DemoStaff[];
  customers: DemoCustomer[];
};

export const demoTenants: DemoTenant[] = [
  {
    slug: "tienda-es",
    name: "Tienda Ejemplo S.L.",
    currency: "EUR",
    locale: "es-ES",
    timeZone: "Europe/Madrid",
    dualApprovalThresholdMinor: 50_000,
    staff: [
      { email: "operaciones@tienda-es.test", name: "Marta Ops", roles: ["ops"], password: "demo-ops-es-2026" },
      {
        email: "lucia.revisora@tienda-es.test",
        name: "Lucía Revisora",
        roles: ["reviewer"],
        password: "demo-reviewer1-es-2026",
      },
      {
        email: "javier.revisor@tienda-es.test",
        name: "Javier Revisor",
        roles: ["reviewer"],
        password: "demo-reviewer2-es-2026",
      },
      {
        email: "auditoria@tienda-es.test",
        name: "Elena Auditora",
        roles: ["auditor"],
        password: "demo-auditor-es-2026",
      },
      { email: "admin@tienda-es.test", name: "Carlos Admin", roles: ["admin"], password: "demo-admin-es-2026" },
    ],
    customers: [
      {
        key: "ana",
        name: "Ana García",
        email: "ana.garcia@cliente-es.test",
        address: ["Calle Mayor 1", "Madrid", "28013", null, "ES"],
        orders: [
          {
            number: "ORD-1001",
            method: "card",
            display: "Visa •••• 4242",
            totalMinor: 12_345,
            items: [{ sku: "AUR-01", name: "Auriculares", quantity: 1, unitMinor: 12_345 }],
          },
          {
            number: "ORD-1002",
            method: "bank_transfer",
            display: "IBAN ES91 •••• •••• •••• •••• 1332",
            totalMinor: 8_990,
            items: [{ sku: "LIB-07", name: "Libro de cocina", quantity: 2, unitMinor: 4_495 }],
          },
        ],
      },
      {
        key: "pablo",
        name: "Pablo Martín",
        email: "pablo.martin@cliente-es.test",
        address: ["Carrer de Balmes 20", "Barcelona", "08007", null, "ES"],
        orders: [
          {
            number: "ORD-1003",
            method: "card",
            display: "Mastercard •••• 4444",
            totalMinor: 20_000,
            refundedMinor: 5_000,
            items: [{ sku: "ZAP-11", name: "Zapatillas", quantity: 1, unitMinor: 20_000 }],
          },
          {
            number: "ORD-1004",
            method: "card",
            display: "Visa •••• 1881",
            totalMinor: 72_000,
            items: [{ sku: "BIC-02", name: "Bicicleta plegable", quantity: 1, unitMinor: 72_000 }],
            fulfilment: "shipped",
          },
        ],
      },
      ...extraCustomers(
        "es",
        [
          ["lucia", "Lucía Fernández"],
          ["diego", "Diego Sánchez"],
          ["carmen", "Carmen Ruiz"],
          ["javi", "Javier Moreno"],
        ],
        3000,
        ["Auriculares", "Lámpara de mesa", "Mochila", "Cafetera", "Reloj", "Teclado"],
      ),
    ],
  },
  {
    slug: "shop-us",
    name: "Example Shop Inc.",
    currency: "USD",
    locale: "en-US",
    timeZone: "America/New_York",
    dualApprovalThresholdMinor: 100_000,
    staff: [
      { email: "ops@shop-us.test", name: "Olivia Ops", roles: ["ops"], password: "demo-ops-us-2026" },
      {
        email: "riley.reviewer@shop-us.test",
        name: "Riley Reviewer",
        roles: ["reviewer"],
        password: "demo-reviewer1-us-2026",
      },
      {
        email: "sam.reviewer@shop-us.test",
        name: "Sam Reviewer",
        roles: ["reviewer"],
        password: "demo-reviewer2-us-2026",
      },
      { email: "audit@shop-us.test", name: "Avery Auditor", roles: ["auditor"], password: "demo-auditor-us-2026" },
      { email: "admin@shop-us.test", name: "Alex Admin", roles: ["admin", "ops"], password: "demo-admin-us-2026" },
    ],
    customers: [
      {
        key: "john",
        name: "John Smith",
        email: "john.smith@customer-us.test",
        address: ["500 Market St", "San Francisco", "94105", "CA", "US"],
        orders: [
          {
            number: "ORD-2001",
            method: "card",
            display: "Visa •••• 4242",
            totalMinor: 4_999,
            items: [{ sku: "MUG-3", name: "Coffee mug set", quantity: 1, unitMinor: 4_999 }],
          },
          {
            number: "ORD-2002",
            method: "card",
            display: "Amex •••• 0005",
            totalMinor: 150_000,
            refundedMinor: 25_000,
            items: [{ sku: "DSK-9", name: "Standing desk", quantity: 1, unitMinor: 150_000 }],
            fulfilment: "delivered",
          },
        ],
      },
      {
        key: "maria",
        name: "Maria Lopez",
        email: "maria.lopez@customer-us.test",
        address: ["1 Main St", "Springfield", "62701", "IL", "US"],
        orders: [
          {
            number: "ORD-2003",
            method: "bank_transfer",
            provider: "manual",
            display: "ACH •••• 6789",
            totalMinor: 32_050,
            items: [{ sku: "CHR-1", name: "Office chair", quantity: 1, unitMinor: 32_050 }],
          },
        ],
      },
      ...extraCustomers(
        "us",
        [
          ["emma", "Emma Johnson"],
          ["liam", "Liam Brown"],
          ["olivia", "Olivia Davis"],
          ["noah", "Noah Wilson"],
        ],
        4000,
        ["Desk lamp", "Backpack", "Espresso machine", "Wireless keyboard", "Sneakers", "Watch"],
      ),
    ],
  },
];

/**
 * More demo customers and orders (added after the original ones, whose rows and ids stay the same):
 * enough orders per tenant to explore, in varied states — paid, partly refunded, fully refunded,
 * card and bank transfer, small amounts and amounts above the two-reviewer threshold.
 */
function extraCustomers(
  country: "es" | "us",
  people: [string, string][],
  firstNumber: number,
  products: string[],
): DemoCustomer[] {
  const domain = country === "es" ? "cliente-es.test" : "customer-us.test";
  const cards = ["Visa •••• 4242", "Mastercard •••• 5454", "Visa •••• 1111", "Amex •••• 8431"];
  const bank = country === "es" ? "IBAN ES12 •••• •••• •••• •••• 7788" : "ACH •••• 2468";
  const amounts = [2_499, 8_950, 15_900, 45_000, 129_900];
  let n = firstNumber;
  return people.map(([key, name], ci) => ({
    key,
    name,
    email: `${key}@${domain}`,
    address:
      country === "es"
        ? [`Calle de Alcalá ${10 + ci}`, "Madrid", "28014", null, "ES"]
        : [`${100 + ci} Broadway`, "New York", "10006", "NY", "US"],
    orders: Array.from({ length: 5 }, (_, oi): DemoOrder => {
      const i = ci * 5 + oi;
      const totalMinor = amounts[i % amounts.length]!;
      const product = products[i % products.length]!;
      // Every 4th order partly refunded, every 7th fully refunded; the rest paid.
      const refundedMinor = i % 7 === 6 ? totalMinor : i % 4 === 3 ? Math.round(totalMinor / 4) : undefined;
      n += 1;
      return {
        number: `ORD-${n}`,
        method: i % 3 === 2 ? "bank_transfer" : "card",
        display: i % 3 === 2 ? bank : cards[i % cards.length]!,
        totalMinor,
        ...(refundedMinor ? { refundedMinor } : {}),
        items: [
          { sku: `${product.slice(0, 3).toUpperCase()}-${i}`, name: product, quantity: 1, unitMinor: totalMinor },
        ],
        // Each customer's second order delivered (the last customer's excepted: agent:demo cancels one of theirs),
        // so the demo has goods a replacement order can be prepared for.
        ...(oi === 1 && ci < people.length - 1 ? { fulfilment: "delivered" as const } : {}),
      };
    }),
  }));
}

export const customerId = (tenantSlug: string, key: string) => `cus_${tenantSlug.replace(/-/g, "_")}_${key}`;
export const channelSecret = (tenantSlug: string, channel: string) => derive(`channel-secret:${tenantSlug}:${channel}`);
export const agentKey = (tenantSlug: string, channel: string) =>
  `agk_${derive(`agent-key:${tenantSlug}:${channel}`).slice(0, 40)}`;
export const paymentIntentRef = (tenantSlug: string, orderNumber: string) =>
  `pi_demo_${derive(`pi:${tenantSlug}:${orderNumber}`).slice(0, 20)}`;
/** Each demo tenant's Orders API key (public like the demo's agent keys; orders:read and orders:write). */
export const integrationKeyOf = (tenantSlug: string) =>
  `igk_demo_${derive(`integration-key:${tenantSlug}`).slice(0, 40)}`;

/**
 * The demo's refund made outside the product: the demo start makes it at the sandbox provider (as a shop's
 * dashboard would) once the payment intent exists; the live read counts it at once and the provider's webhook
 * puts it into the ledger with origin external, so a reviewer sees "refunded elsewhere" (scripts/start.ts).
 */
export const demoRefundElsewhere = { tenantSlug: "tienda-es", orderNumber: "ORD-1003", amountMinor: 2_500 } as const;

/**
 * Where demo customers move to (the wire form an agent sends to prepare_address_change: every key, null for a line
 * there is none of), per tenant; two, so a demo asked again after the first was carried out still has a new one.
 */
export const demoNewAddresses: Record<
  string,
  { line1: string; line2: string | null; city: string; postal_code: string; region: string | null; country: string }[]
> = {
  "tienda-es": [
    { line1: "Calle de Serrano 41", line2: "3º B", city: "Madrid", postal_code: "28001", region: null, country: "ES" },
    {
      line1: "Passeig de Gràcia 92",
      line2: null,
      city: "Barcelona",
      postal_code: "08008",
      region: null,
      country: "ES",
    },
  ],
  "shop-us": [
    { line1: "350 5th Ave", line2: "Suite 4100", city: "New York", postal_code: "10118", region: "NY", country: "US" },
    { line1: "1 Market St", line2: null, city: "San Francisco", postal_code: "94105", region: "CA", country: "US" },
  ],
};

/** Thrown by seedDemo on a database that holds a tenant of its own: demo data never joins real tenants. */
export class DemoRefusedError extends Error {}

/**
 * Inserts the demo when its first tenant is missing; a no-op on a database that already has it. Refuses (and
 * writes nothing) when the database holds any tenant that is not a demo tenant: real data is never mixed with
 * demo logins whose passwords are published.
 */
export async function seedDemo(prisma: PrismaClient): Promise<{ seeded: boolean }> {
  const foreign = await prisma.tenant.findMany({
    where: { demo: false },
    select: { slug: true },
    orderBy: { createdAt: "asc" },
    take: 3,
  });
  if (foreign.length > 0) {
    throw new DemoRefusedError(
      `refusing to load the demo: this database holds tenants that are not demo tenants (${foreign.map((t) => t.slug).join(", ")}${foreign.length === 3 ? ", …" : ""}); demo data with published passwords never goes into a real database`,
    );
  }
  const first = demoTenants[0];
  if (first && (await prisma.tenant.findUnique({ where: { slug: first.slug } }))) return { seeded: false };

  // Hash outside the transaction: argon2 is slow on purpose. Imported here so that reading the demo
  // data (browser tests, demo:credentials) does not load the server-only data layer.
  const { hashPassword } = await import("../../lib/server/auth/password");
  const hashes = new Map<string, string>();
  for (const t of demoTenants) for (const s of t.staff) hashes.set(s.email, await hashPassword(s.password));

  const insertAll = async (tx: Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0]) => {
    for (const t of demoTenants) {
      const tenantId = demoUuid(`tenant:${t.slug}`);
      await tx.tenant.create({
        data: {
          id: tenantId,
          slug: t.slug,
          name: t.name,
          currency: t.currency,
          locale: t.locale,
          timeZone: t.timeZone,
          dualApprovalThresholdMinor: t.dualApprovalThresholdMinor,
          demo: true,
        },
      });
      for (const s of t.staff) {
        await tx.staffUser.create({
          data: {
            id: demoUuid(`staff:${s.email}`),
            tenantId,
            email: s.email,
            name: s.name,
            roles: s.roles,
            passwordHash: hashes.get(s.email) ?? null,
          },
        });
      }
      for (const c of CHANNELS) {
        const channelId = demoUuid(`channel:${t.slug}:${c.slug}`);
        await tx.channel.create({
          data: {
            id: channelId,
            tenantId,
            slug: c.slug,
            name: c.name,
            endUserTokenSecret: channelSecret(t.slug, c.slug),
            allowedTools: c.tools,
          },
        });
        const key = agentKey(t.slug, c.slug);
        await tx.agentKey.create({
          data: {
            id: demoUuid(`agent-key:${t.slug}:${c.slug}`),
            tenantId,
            channelId,
            name: `${c.name} agent`,
            keyPrefix: key.slice(0, 12),
            keyHash: sha256Hex(key),
            allowedTools: c.tools,
          },
        });
      }
      const admin = t.staff.find((s) => s.roles.includes("admin"));
      await seedDemoSegment(tx, t.slug, {
        tenantId,
        id: demoUuid(`segment:${t.slug}:1`),
        createdById: admin ? demoUuid(`staff:${admin.email}`) : null,
      });
      const igk = integrationKeyOf(t.slug);
      await tx.integrationKey.create({
        data: {
          id: demoUuid(`integration-key:${t.slug}`),
          tenantId,
          name: "Demo shop backend",
          keyPrefix: igk.slice(0, 12),
          keyHash: sha256Hex(igk),
          scopes: ["orders:read", "orders:write"],
        },
      });
      let day = 0;
      for (const cu of t.customers) {
        const cid = customerId(t.slug, cu.key);
        await tx.customer.create({ data: { id: cid, tenantId, name: cu.name, email: cu.email } });
        for (const o of cu.orders) {
          day += 1;
          const orderId = demoUuid(`order:${t.slug}:${o.number}`);
          const paymentId = demoUuid(`payment:${t.slug}:${o.number}`);
          const refunded = o.refundedMinor ?? 0;
          await tx.order.create({
            data: {
              id: orderId,
              tenantId,
              number: o.number,
              customerId: cid,
              currency: t.currency,
              totalMinor: o.totalMinor,
              capturedMinor: o.totalMinor,
              status: refunded >= o.totalMinor ? "refunded" : refunded > 0 ? "partially_refunded" : "paid",
              items: o.items,
              fulfilment: o.fulfilment ?? "unfulfilled",
              shippingAddress: demoAddress(cu.name, cu.address),
              placedAt: new Date(Date.UTC(2026, 9, day, 10, 0, 0)),
            },
          });
          await tx.payment.create({
            data: {
              id: paymentId,
              tenantId,
              orderId,
              method: o.method,
              ...(o.provider ? { provider: o.provider } : {}),
              providerPaymentRef: paymentIntentRef(t.slug, o.number),
              holderName: cu.name,
              display: o.display,
              amountMinor: o.totalMinor,
              currency: t.currency,
            },
          });
          if (refunded > 0) {
            await tx.refund.create({
              data: {
                id: demoUuid(`refund:${t.slug}:${o.number}`),
                tenantId,
                orderId,
                paymentId,
                amountMinor: refunded,
                currency: t.currency,
                status: "succeeded",
                providerRefundId: `re_demo_${derive(`re:${t.slug}:${o.number}`).slice(0, 20)}`,
                reason: "damaged_item",
              },
            });
          }
        }
      }
    }
  };
  // A few hundred rows in one transaction: more than Prisma's default 5 s on a slow or loaded server.
  await prisma.$transaction(insertAll, { timeout: 60_000 });
  return { seeded: true };
}

/**
 * What a channel integration does: an HS256 token with `sub`, `tenant`, `aud` = "<tenant>/<channel>", `iat`,
 * `exp`. The gateway refuses tokens older than the tenant's endUserTokenMaxAgeSeconds (default 1 hour), so
 * the default lifetime matches it.
 */
export async function mintEndUserToken(
  tenantSlug: string,
  channel: string,
  customer: string,
  ttlSeconds = 3600,
): Promise<string> {
  return new SignJWT({ tenant: tenantSlug })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(customer)
    .setAudience(endUserTokenAudience(tenantSlug, channel))
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(new TextEncoder().encode(channelSecret(tenantSlug, channel)));
}

export type DemoCredentials = {
  tenants: {
    slug: string;
    currency: string;
    staff: { email: string; password: string; roles: string[] }[];
    agents: { channel: string; key: string; tools: string[] }[];
    /** The Orders API key (docs/systems-of-record.md). */
    integrationKey: string;
    /** The sandbox provider this run of the demo started and its test key (absent when no demo is running). */
    paymentProvider?: { url: string; apiKey: string };
    customers: { id: string; endUserToken: string; orderIds: string[] }[];
  }[];
};

/** The JSON `npm run demo:credentials` prints. End-user tokens are minted fresh (web_support channel). */
export async function demoCredentials(paymentProvider?: { url: string; apiKey: string }): Promise<DemoCredentials> {
  return {
    tenants: await Promise.all(
      demoTenants.map(async (t) => ({
        slug: t.slug,
        currency: t.currency,
        staff: t.staff.map((s) => ({ email: s.email, password: s.password, roles: [...s.roles] })),
        agents: CHANNELS.map((c) => ({ channel: c.slug, key: agentKey(t.slug, c.slug), tools: [...c.tools] })),
        integrationKey: integrationKeyOf(t.slug),
        // Every demo tenant uses the installation's sandbox connection (none stores its own).
        ...(paymentProvider ? { paymentProvider } : {}),
        customers: await Promise.all(
          t.customers.map(async (c) => ({
            id: customerId(t.slug, c.key),
            endUserToken: await mintEndUserToken(t.slug, "web_support", customerId(t.slug, c.key)),
            orderIds: c.orders.map((o) => o.number),
          })),
        ),
      })),
    ),
  };
}

/** A demo customer's address as an order stores it (normalised: the demo's own values must pass the same check). */
function demoAddress(name: string, [line1, city, postalCode, region, country]: DemoAddress): PostalAddress {
  const normalised = normalisePostalAddress({
    name,
    line1,
    line2: null,
    city,
    postal_code: postalCode,
    region,
    country,
  });
  if (!normalised.ok) throw new Error(`demo address of ${name}: ${JSON.stringify(normalised.problems)}`);
  return normalised.address;
}
