import "server-only";
import { refundStatus } from "@/lib/domain/refund-state";
import { invalidArguments, parseInput, type InputProblem } from "@/lib/domain/validation";
import { orderBodyInput, orderNumber, type OrderBodyInput } from "@/lib/schemas/orders-api";
import { e164 } from "@/lib/domain/phone";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import { type Tx } from "@/lib/server/db/client";
import { Prisma } from "@/lib/server/db/generated/client";
import { sqlOf, sql } from "@/lib/server/db/sql";
import type { IntegrationCaller } from "@/lib/server/integrations/authenticate-integration-key";
import { invalidateUnfitProposals, refreshOrderStatus } from "@/lib/server/proposals/invalidate-unfit-proposals";
import { lockOrder } from "@/lib/server/proposals/locks";
import { refundableLeft } from "@/lib/server/proposals/refundable-left";
import { upsertExternalRefund } from "@/lib/server/payments/upsert-external-refund";
import { providerAccountOf } from "@/lib/server/payments/provider-account";
import { transaction } from "@/lib/server/db/transaction";
import { isUniqueViolation } from "@/lib/server/db/unique-violation";
import { normalisePostalAddress } from "@/lib/domain/postal-address";

/**
 * Who writes the order, for the audit: an integration key (the Orders API) or the operator running
 * `npm run orders:import` on the server (docs/systems-of-record.md). Both go through the same upsert below.
 */
export type OrderWriter = {
  tenantId: string;
  actorId: string;
  authMethod: "integration_key" | "operator_cli";
  source: "orders_api" | "orders_import";
};

export const apiWriter = (caller: IntegrationCaller): OrderWriter => ({
  tenantId: caller.tenantId,
  actorId: caller.keyId,
  authMethod: "integration_key",
  source: "orders_api",
});

export type UpsertOrderResult = {
  number: string;
  created: boolean;
  changed: boolean;
  refundable: { minor: number; currency: string };
  /** Open proposals this change invalidated (their order no longer allows them). */
  invalidated: string[];
};

/**
 * `PUT /api/v1/orders/{number}` and each line of `orders:import`: the order as the shop's system holds it, an
 * idempotent upsert in one transaction (serialized per order number by an advisory lock, so two pushes of the
 * same new order cannot both create it). The customer is the one the channel's end-user tokens name in `sub`.
 * Payments are matched by reference; refunds by reference — those the shop sends enter our ledger with origin
 * `external`; refunds this product made (origin `local`) are never changed by a push; no refund is ever removed
 * (one that did not happen is sent as `canceled`). Then every pending proposal of the order is checked against
 * the order as it now is (the rule approval and execution apply, proposal-guards.ts) and invalidated when it no
 * longer fits. The write and its audit event commit together; the audit keeps no personal data in clear.
 */
export async function upsertOrder(
  caller: OrderWriter,
  rawNumber: string,
  raw: unknown,
  traceId: string,
  now = new Date(),
): Promise<UpsertOrderResult> {
  const number = parseInput(orderNumber, rawNumber, "The order number in the path is not valid.");
  const body = parseInput(orderBodyInput, raw, "The order is not valid.");
  try {
    return await transaction((tx) => upsertOrderIn(tx, caller, number, body, traceId, now), { timeout: 20_000 });
  } catch (error) {
    // A reference (payment, refund, customer id) another push claimed between our check and our write — another
    // tenant's at the shared provider account included: refused like the check refuses it, naming no one.
    throw asRefusal(error);
  }
}

/**
 * A unique violation (a reference another push claimed between our check and our write) as the refusal the
 * check gives; anything else as it is. Shared with the batch path (upsert-order-batch.ts).
 */
export function asRefusal(error: unknown): unknown {
  if (!isUniqueViolation(error)) return error;
  return problems("The order could not be stored: a reference it names is not available.", [
    { path: "$", expected: "references unique to your shop", message: "not available" },
  ]);
}

/** The upsert on an open transaction: the per-order rules, also run by the batch path for its hard cases. */
export async function upsertOrderIn(
  tx: Tx,
  caller: OrderWriter,
  number: string,
  body: OrderBodyInput,
  traceId: string,
  now: Date,
): Promise<UpsertOrderResult> {
  const { tenantId } = caller;
  await sql`SELECT 1 FROM pg_advisory_xact_lock(hashtextextended(${`order:${tenantId}:${number}`}, 0))`.execute(
    sqlOf(tx),
  );
  const tenant = await tx.tenant.findUniqueOrThrow({ where: { id: tenantId }, select: { currency: true } });
  const existing = await tx.order.findUnique({
    where: { tenantId_number: { tenantId, number } },
    select: { id: true, customerId: true },
  });
  // The order row before anything of its proposals, as every path (lib/server/proposals/locks.ts).
  if (existing) await lockOrder(sqlOf(tx), tenantId, existing.id);
  const providerAccount = await providerAccountOf(sqlOf(tx), tenantId);
  await checkConsistency(tx, tenantId, existing?.id ?? null, body, tenant.currency, providerAccount);
  const before = existing ? await snapshot(tx, existing.id) : null;

  // Customer ids are the shop's own, unique per tenant: another shop's "C-1" is another customer, never looked at.
  const customerKey = { tenantId_id: { tenantId, id: body.customer.id } };
  const customer = await tx.customer.findUnique({
    where: customerKey,
    select: { name: true, email: true, phone: true },
  });
  // The phone: E.164 when given, null clears it, absent keeps the one on record.
  const phone = phoneOf(body.customer.phone);
  if (!customer)
    await tx.customer.create({
      data: {
        id: body.customer.id,
        tenantId,
        name: body.customer.name,
        email: body.customer.email,
        phone: phone ?? null,
      },
    });
  else if (
    customer.name !== body.customer.name ||
    customer.email !== body.customer.email ||
    (phone !== undefined && customer.phone !== phone)
  ) {
    await tx.customer.update({
      where: customerKey,
      data: { name: body.customer.name, email: body.customer.email, ...(phone !== undefined ? { phone } : {}) },
    });
  }

  const { capturedMinor, items } = storedAmounts(body);
  const orderData = {
    customerId: body.customer.id,
    currency: body.currency,
    totalMinor: body.total_minor,
    capturedMinor,
    items,
    placedAt: new Date(body.placed_at),
    // Absent: what the shop pushed before stays (a CSV line, which has no such columns, changes neither).
    ...(body.fulfilment ? { fulfilment: body.fulfilment } : {}),
    ...(body.shipping_address === undefined ? {} : { shippingAddress: shippingAddressOf(body.shipping_address) }),
  };
  const order = existing
    ? await tx.order.update({ where: { id: existing.id }, data: orderData, select: { id: true } })
    : await tx.order.create({ data: { tenantId, number, ...orderData }, select: { id: true } });

  const payments = new Map<string, string>();
  for (const p of body.payments) {
    const data = {
      method: p.method,
      holderName: p.holder,
      display: p.display,
      amountMinor: p.captured_minor,
      currency: body.currency,
      provider: p.provider,
      providerAccount,
    };
    const row = await tx.payment.upsert({
      where: { tenantId_providerPaymentRef: { tenantId, providerPaymentRef: p.reference } },
      create: { tenantId, orderId: order.id, providerPaymentRef: p.reference, ...data },
      update: data,
      select: { id: true },
    });
    payments.set(p.reference, row.id);
  }
  await tx.payment.deleteMany({ where: { orderId: order.id, providerPaymentRef: { notIn: [...payments.keys()] } } });

  for (const r of body.refunds) {
    const paymentId = payments.get(r.payment_reference ?? body.payments[0]!.reference)!;
    const found = await tx.refund.findUnique({
      where: { tenantId_providerRefundId: { tenantId, providerRefundId: r.reference } },
      select: { origin: true },
    });
    if (found?.origin === "local") continue; // ours: the execution and its reconciliation keep it
    const data = {
      paymentId,
      amountMinor: r.amount_minor,
      currency: body.currency,
      status: r.status,
      ...(r.created_at ? { createdAt: new Date(r.created_at) } : {}),
    };
    await upsertExternalRefund(tx, { tenantId, orderId: order.id, paymentId, providerRefundId: r.reference }, data);
  }
  const status = await refreshOrderStatus(tx, { id: order.id, capturedMinor, cancelled: body.status === "canceled" });

  const after = await snapshot(tx, order.id);
  const changed = before !== after;
  const invalidated = changed ? await invalidateUnfitProposals(tx, caller, order.id, traceId, now) : [];
  const left = await refundableLeft(sqlOf(tx), { id: order.id, capturedMinor }, { now });
  const outcome = !existing ? "created" : changed ? "updated" : "unchanged";
  await recordAuditEvent(sqlOf(tx), {
    tenantId,
    traceId,
    actor: { type: "system", id: caller.actorId, authMethod: caller.authMethod },
    action: "orders:upsert",
    outcome,
    endUser: body.customer.id,
    data: {
      number,
      currency: body.currency,
      totalMinor: body.total_minor,
      capturedMinor,
      status,
      payments: body.payments.length,
      refunds: body.refunds.length,
      refundableMinor: left.leftMinor,
      invalidatedProposals: invalidated,
      customer: {
        email: body.customer.email,
        name: body.customer.name,
        ...(phone !== undefined ? { phone } : {}),
      },
    },
    redaction: {
      clear: [
        "number",
        "currency",
        "totalMinor",
        "capturedMinor",
        "status",
        "payments",
        "refunds",
        "refundableMinor",
        "invalidatedProposals",
      ],
    },
  });
  return {
    number,
    created: !existing,
    changed,
    refundable: { minor: left.leftMinor, currency: body.currency },
    invalidated,
  };
}

/** What the order row stores of the body's payments and items (the batch path stores the same). */
export function storedAmounts(body: OrderBodyInput) {
  return {
    capturedMinor: body.payments.reduce((s, p) => s + p.captured_minor, 0),
    items: body.items.map((i) => ({ sku: i.sku, name: i.name, quantity: i.quantity, unitMinor: i.unit_minor })),
  };
}

const problems = (message: string, list: InputProblem[]) => invalidArguments(message, list);

/** The normalised address as stored (the schema already refused one that does not normalise). */
export function shippingAddressOf(raw: NonNullable<OrderBodyInput["shipping_address"]> | null) {
  if (raw === null) return Prisma.DbNull;
  const normalised = normalisePostalAddress(raw);
  if (!normalised.ok) throw new Error("the order schema let through an address that does not normalise");
  return normalised.address;
}

/**
 * What the body alone cannot be (no database read): the tenant's currency, references not repeated, refunds on
 * one of the order's payments and not above what it captured. Part of checkConsistency, and the batch path's
 * test of an order it may write set-based (upsert-order-batch.ts): one definition for both.
 */
export function bodyProblems(body: OrderBodyInput, tenantCurrency: string): InputProblem[] {
  const list: InputProblem[] = [];
  if (body.currency !== tenantCurrency)
    list.push({
      path: "$.currency",
      expected: tenantCurrency,
      message: `this tenant keeps its books in ${tenantCurrency}`,
    });
  const refs = body.payments.map((p) => p.reference);
  refs.forEach((ref, i) => {
    if (refs.indexOf(ref) !== i)
      list.push({ path: `$.payments[${i}].reference`, expected: "a reference not repeated", message: "sent twice" });
  });
  const refundRefs = body.refunds.map((r) => r.reference);
  const holding = new Map<string, number>();
  body.refunds.forEach((r, i) => {
    if (refundRefs.indexOf(r.reference) !== i)
      list.push({ path: `$.refunds[${i}].reference`, expected: "a reference not repeated", message: "sent twice" });
    const to = r.payment_reference ?? refs[0]!;
    if (!refs.includes(to))
      list.push({
        path: `$.refunds[${i}].payment_reference`,
        expected: "one of the order's payment references",
        message: "no such payment",
      });
    if (r.status !== refundStatus.failed && r.status !== "canceled")
      holding.set(to, (holding.get(to) ?? 0) + r.amount_minor);
  });
  body.payments.forEach((p, i) => {
    if ((holding.get(p.reference) ?? 0) > p.captured_minor)
      list.push({
        path: `$.payments[${i}].captured_minor`,
        expected: "at least the refunds made on it",
        message: "refunds exceed what was captured",
      });
  });
  return list;
}

/** What a schema cannot say: one currency (the tenant's), unique references, refunds that fit their payment. */
async function checkConsistency(
  tx: Tx,
  tenantId: string,
  orderId: string | null,
  body: OrderBodyInput,
  tenantCurrency: string,
  providerAccount: string,
): Promise<void> {
  const list = bodyProblems(body, tenantCurrency);
  const refs = body.payments.map((p) => p.reference);
  const refundRefs = body.refunds.map((r) => r.reference);
  // A reference already stored under another order of the tenant cannot move to this one.
  const sent = { payments: refs, refunds: refundRefs };
  const stored = {
    payments: (
      await tx.payment.findMany({
        where: { tenantId, providerPaymentRef: { in: refs } },
        select: { providerPaymentRef: true, orderId: true },
      })
    ).map((p) => ({ ref: p.providerPaymentRef, orderId: p.orderId })),
    refunds: (
      await tx.refund.findMany({
        where: { tenantId, providerRefundId: { in: refundRefs } },
        select: { providerRefundId: true, orderId: true },
      })
    ).map((r) => ({ ref: r.providerRefundId!, orderId: r.orderId })),
  };
  for (const field of ["payments", "refunds"] as const)
    for (const t of stored[field])
      if (t.orderId !== orderId)
        list.push({
          path: `$.${field}[${sent[field].indexOf(t.ref)}].reference`,
          expected: `a ${field === "payments" ? "payment" : "refund"} of this order`,
          message: "belongs to another order",
        });
  // A payment intent of the provider account this tenant shares with others (the installation's default connection)
  // that another tenant already holds is that tenant's: refused, without saying whose (docs/systems-of-record.md
  // "Whose payment it is"). The partial unique index "Payment_stripe_account_reference_key" backs this up.
  const stripeRefs = body.payments.filter((p) => p.provider === "stripe").map((p) => p.reference);
  const foreign =
    stripeRefs.length === 0
      ? []
      : await tx.payment.findMany({
          where: {
            providerAccount,
            provider: "stripe",
            providerPaymentRef: { in: stripeRefs },
            tenantId: { not: tenantId },
          },
          select: { providerPaymentRef: true },
        });
  for (const f of foreign)
    list.push({
      path: `$.payments[${refs.indexOf(f.providerPaymentRef)}].reference`,
      expected: "a payment intent of your shop's provider account",
      message: "not available",
    });
  if (orderId) {
    const kept = await tx.payment.findMany({
      where: {
        orderId,
        providerPaymentRef: { notIn: refs },
        OR: [{ refunds: { some: {} } }, { proposals: { some: {} } }],
      },
      select: { providerPaymentRef: true },
    });
    for (const k of kept)
      list.push({
        path: "$.payments",
        expected: `the payment ${k.providerPaymentRef} still listed`,
        message: "a payment with refunds or proposals cannot be removed",
      });
  }
  if (list.length > 0) throw problems(`The order is not consistent: ${list[0]!.path} ${list[0]!.message}.`, list);
}

/** Everything a push can change, as one string: equal strings = nothing changed (the PUT was a repeat). */
async function snapshot(tx: Tx, orderId: string): Promise<string> {
  return JSON.stringify(await tx.order.findUniqueOrThrow({ where: { id: orderId }, select: SNAPSHOT }));
}

/** snapshot() of many orders in one read (the batch path's set-based updates): the same fields, the same string. */
export async function snapshotsOf(tx: Tx, orderIds: string[]): Promise<Map<string, string>> {
  const rows = await tx.order.findMany({ where: { id: { in: orderIds } }, select: { id: true, ...SNAPSHOT } });
  return new Map(rows.map(({ id, ...o }) => [id, JSON.stringify(o)]));
}

const SNAPSHOT = {
  customerId: true,
  currency: true,
  totalMinor: true,
  capturedMinor: true,
  status: true,
  items: true,
  fulfilment: true,
  shippingAddress: true,
  placedAt: true,
  customer: { select: { name: true, email: true } },
  payments: {
    orderBy: { providerPaymentRef: "asc" },
    select: {
      providerPaymentRef: true,
      method: true,
      holderName: true,
      display: true,
      amountMinor: true,
      provider: true,
    },
  },
  refunds: {
    orderBy: { providerRefundId: "asc" },
    select: { providerRefundId: true, amountMinor: true, status: true, paymentId: true, origin: true },
  },
} satisfies Prisma.OrderSelect;

/** The customer's phone as stored: E.164, null (none), or undefined (the body has none: keep the one on record). */
export function phoneOf(raw: string | null | undefined): string | null | undefined {
  if (raw === undefined || raw === null) return raw;
  const normalised = e164(raw);
  // The schema refused anything e164 cannot read: reaching here without a number is a bug, never a silent drop.
  if (!normalised) throw new Error("a phone the Orders API schema accepted is not E.164");
  return normalised;
}
