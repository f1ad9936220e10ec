// The one home for fixture rows and actors: integration tests, browser specs (through fresh-order.ts), the soak, the
// benchmarks and the attack script create their paid card orders here, through Prisma's model API, so an
// `Order` or `Payment` column added to the schema is filled in one place. The product itself writes orders
// only through lib/server/orders/upsert-order.ts and the demo seed (scripts/lib/demo-data.ts).
import { isRole } from "../../lib/domain/permissions";
import type { Actor } from "../../lib/server/auth/actor";
import { createHash, randomUUID } from "node:crypto";
import type { PrismaClient, ProposalStatus } from "../../lib/server/db/generated/client";
import { asRefund } from "../../lib/domain/refund-row";

/** What the factory needs of a Prisma client or of an interactive transaction. */
export type FixtureDb = Pick<PrismaClient, "order" | "payment">;

export interface FixtureTenant {
  id: string;
  currency: string;
}

export interface PaidOrder {
  orderId: string;
  number: string;
  paymentId: string;
  paymentRef: string;
  amountMinor: number;
}

let seq = 0;

/** A number no other fixture of this process (nor, by its time part, of an earlier run) has: `<prefix>-<time>-<n>`. */
export function fixtureOrderNumber(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${++seq}`;
}

/**
 * A paid card order of `customerId`, captured in full, with its one card payment (`paymentRef`, default
 * `pi_test_<number>`): what a shop's order looks like right after checkout.
 */
export async function createPaidOrder(
  db: FixtureDb,
  tenant: FixtureTenant,
  opts: {
    customerId: string;
    amountMinor: number;
    number?: string;
    prefix?: string;
    paymentRef?: string;
    holderName?: string;
  },
): Promise<PaidOrder> {
  const number = opts.number ?? fixtureOrderNumber(opts.prefix ?? "T");
  const paymentRef = opts.paymentRef ?? `pi_test_${number}`;
  const currency = tenant.currency.trim();
  const order = await db.order.create({
    data: {
      tenantId: tenant.id,
      number,
      customerId: opts.customerId,
      currency,
      totalMinor: opts.amountMinor,
      capturedMinor: opts.amountMinor,
      items: [],
    },
    select: { id: true },
  });
  const payment = await db.payment.create({
    data: {
      tenantId: tenant.id,
      orderId: order.id,
      method: "card",
      providerPaymentRef: paymentRef,
      holderName: opts.holderName ?? "Test Holder",
      display: "Visa •••• 4242",
      amountMinor: opts.amountMinor,
      currency,
    },
    select: { id: true },
  });
  return { orderId: order.id, number, paymentId: payment.id, paymentRef, amountMinor: opts.amountMinor };
}

/**
 * A proposal row for `order`, inserted as it stands after the gateway made it (card refund to the order's
 * payment), so a test controls status, expiry and approvals exactly. Its hash is a placeholder (sha256 of the
 * id): tests that need a real, recomputable hash prepare through the gateway instead.
 */
export async function createProposalRow(
  db: Pick<PrismaClient, "proposal">,
  tenant: FixtureTenant,
  order: PaidOrder,
  opts: {
    customerId: string;
    expiresAt: Date;
    status?: ProposalStatus;
    amountMinor?: number;
    requiredApprovals?: number;
    holderName?: string;
    traceId?: string;
  },
) {
  const id = randomUUID();
  return asRefund(
    await db.proposal.create({
      data: {
        id,
        tenantId: tenant.id,
        kind: "refund",
        subject: { type: "order", ref: order.orderId },
        orderId: order.orderId,
        customerId: opts.customerId,
        paymentId: order.paymentId,
        amountMinor: opts.amountMinor ?? order.amountMinor,
        currency: tenant.currency.trim(),
        recipientKind: "card",
        recipientRef: order.paymentRef,
        recipientHolder: opts.holderName ?? "Test Holder",
        recipientDisplay: "Visa •••• 4242",
        reason: "damaged_item",
        status: opts.status ?? "pending_approval",
        hash: createHash("sha256").update(id).digest("hex"),
        expiresAt: opts.expiresAt,
        requiredApprovals: opts.requiredApprovals ?? 1,
        traceId: opts.traceId ?? `test-trace-${id}`,
      },
    }),
  );
}

const BATCH = 2_000;

/**
 * `count` paid card orders at once (benchmarks and the soak): order i is `number(i)`, of
 * `customerIds[i % customerIds.length]`, for `amountMinor(i)`, paid by `paymentRef(number)`. Inserted in
 * batches of a few thousand rows per statement.
 */
export async function createPaidOrders(
  db: FixtureDb,
  tenant: FixtureTenant,
  opts: {
    count: number;
    customerIds: readonly string[];
    number: (i: number) => string;
    amountMinor: (i: number) => number;
    paymentRef: (number: string) => string;
    holderName?: string;
  },
): Promise<number> {
  if (opts.customerIds.length === 0) throw new Error("createPaidOrders: no customer");
  const currency = tenant.currency.trim();
  for (let start = 0; start < opts.count; start += BATCH) {
    const indexes = Array.from({ length: Math.min(BATCH, opts.count - start) }, (_, k) => start + k);
    const orders = await db.order.createManyAndReturn({
      data: indexes.map((i) => ({
        tenantId: tenant.id,
        number: opts.number(i),
        customerId: opts.customerIds[i % opts.customerIds.length]!,
        currency,
        totalMinor: opts.amountMinor(i),
        capturedMinor: opts.amountMinor(i),
        items: [],
      })),
      select: { id: true, number: true, capturedMinor: true },
    });
    await db.payment.createMany({
      data: orders.map((o) => ({
        tenantId: tenant.id,
        orderId: o.id,
        method: "card" as const,
        providerPaymentRef: opts.paymentRef(o.number),
        holderName: opts.holderName ?? "Test Holder",
        display: "Visa •••• 4242",
        amountMinor: o.capturedMinor,
        currency,
      })),
    });
  }
  return opts.count;
}

/**
 * A staff member as use cases see them (an `Actor`), built from their row the way getActor() builds it from a
 * session: signed in with a password `authAgoSeconds` ago (default 10 s), the tenant's locale, zone and
 * step-up window. Tests that need a recorded session add it (tests/support/actors.ts).
 */
export async function staffActor(
  db: Pick<PrismaClient, "staffUser">,
  email: string,
  opts: { authAgoSeconds?: number } = {},
): Promise<Actor> {
  const u = await db.staffUser.findUniqueOrThrow({ where: { email }, include: { tenant: true } });
  return {
    userId: u.id,
    tenantId: u.tenantId,
    tenantSlug: u.tenant.slug,
    name: u.name,
    email: u.email,
    roles: u.roles.filter(isRole),
    locale: u.locale ?? u.tenant.locale,
    timeZone: u.tenant.timeZone,
    authTime: Math.floor(Date.now() / 1000) - (opts.authAgoSeconds ?? 10),
    authMethod: "password",
    stepUpMinutes: u.tenant.stepUpMinutes,
  };
}
