// The Orders API's wire shapes (docs/systems-of-record.md): one schema for `PUT /api/v1/orders/{number}`, the
// import script's lines and the integration keys' admin form. snake_case like the agent API; money in integer
// minor units; every object strict, so a misspelled field is a problem with its path, not a silent drop.
import { z } from "zod";
import { normalisePostalAddress, postalAddressInput } from "@/lib/domain/postal-address";
import { stepUp } from "./step-up";
import { INT4_MAX, minorUnits, storable, storedDateTime, storedText } from "./stored";
import { e164, PHONE_EXPECTED, PHONE_INPUT_MAX } from "@/lib/domain/phone";

export const integrationScopes = ["orders:write", "orders:read"] as const;
export type IntegrationScope = (typeof integrationScopes)[number];

export const issueIntegrationKeyInput = z.strictObject({
  label: storedText(80),
  scopes: z.array(z.enum(integrationScopes)).min(1).max(integrationScopes.length),
  expiresAt: storedDateTime().optional(),
  ...stepUp,
});
export type IssueIntegrationKeyInput = z.infer<typeof issueIntegrationKeyInput>;

/** An order reference as shops write them: "ORD-1001", "1001", "#1001" without the hash. */
export const orderNumber = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "letters, digits, '.', '_' or '-', at most 64");

// Every value fits its column (stored.ts): money an int4, text without NUL or lone surrogates, years 1–9999.
const minor = minorUnits;
const currency = z.string().regex(/^[A-Z]{3}$/, "an ISO 4217 code in capitals, e.g. USD");
const timestamp = storedDateTime();
const text = storedText;

export const orderPaymentInput = z.strictObject({
  provider: z.enum(["stripe", "manual"]),
  /** The provider's payment reference (Stripe: the PaymentIntent id `pi_…`); for manual payments, the shop's own. */
  reference: z.string().regex(/^[A-Za-z0-9_.:-]{1,255}$/, "the payment's reference, e.g. pi_123"),
  method: z.enum(["card", "bank_transfer"]),
  captured_minor: minor,
  holder: text(200),
  display: text(100),
});

export const orderRefundInput = z.strictObject({
  reference: z.string().regex(/^[A-Za-z0-9_.:-]{1,255}$/, "the refund's reference, e.g. re_123"),
  amount_minor: minor.min(1),
  status: z.enum(["pending", "requires_action", "succeeded", "failed", "canceled"]),
  created_at: timestamp.optional(),
  /** Which payment it went back to (its reference); default: the order's first payment. */
  payment_reference: storable(z.string().min(1).max(255)).optional(),
});

const orderBodyFields = {
  customer: z.strictObject({
    /** The id the channel's end-user token carries as `sub`. */
    id: z
      .string()
      .regex(/^[A-Za-z0-9_.:@-]{1,128}$/, "the customer's id in your shop, as your end-user tokens carry it in `sub`"),
    email: z.string().trim().max(320).pipe(z.email()),
    name: text(200),
    /** The customer's phone on record, E.164 (normalised when stored); null: none; absent: the one on record kept. */
    phone: z
      .string()
      .max(PHONE_INPUT_MAX)
      .refine((v) => e164(v) !== null, PHONE_EXPECTED)
      .nullable()
      .optional(),
  }),
  currency,
  total_minor: minor,
  status: z.enum(["paid", "canceled"]),
  placed_at: timestamp,
  items: z
    .array(
      z.strictObject({
        sku: text(64),
        name: text(200),
        quantity: z.number().int().min(1).max(100_000),
        unit_minor: minor,
      }),
    )
    .max(500)
    .default([]),
  payments: z.array(orderPaymentInput).min(1).max(20),
  refunds: z.array(orderRefundInput).max(200).default([]),
  /** Where fulfilment stands in the shop. Absent: unchanged (a new order is unfulfilled). */
  fulfilment: z.enum(["unfulfilled", "shipped", "delivered"]).optional(),
  /** Where the order ships to; null: none. Absent: unchanged. Normalised and checked (lib/domain/postal-address.ts). */
  shipping_address: postalAddressInput.nullable().optional(),
};

/** The order's captured total (the sum of its payments) is an int4 column too. */
function capturedFits(body: { payments: { captured_minor: number }[] }, ctx: z.RefinementCtx) {
  if (body.payments.reduce((sum, p) => sum + p.captured_minor, 0) > INT4_MAX)
    ctx.addIssue({
      code: "too_big",
      origin: "number",
      maximum: INT4_MAX,
      path: ["payments"],
      message: `the payments' captured amounts add up to more than ${INT4_MAX}`,
    });
}

/** A shipping address must normalise: a country that exists, a postal code of its format, no empty lines. */
function addressFits(body: { shipping_address?: z.infer<typeof postalAddressInput> | null }, ctx: z.RefinementCtx) {
  if (!body.shipping_address) return;
  const normalised = normalisePostalAddress(body.shipping_address);
  if (!normalised.ok)
    for (const p of normalised.problems)
      ctx.addIssue({ code: "custom", path: ["shipping_address", p.path], message: p.message });
}

function orderFits(body: Parameters<typeof capturedFits>[0] & Parameters<typeof addressFits>[0], ctx: z.RefinementCtx) {
  capturedFits(body, ctx);
  addressFits(body, ctx);
}

export const orderBodyInput = z.strictObject(orderBodyFields).superRefine(orderFits);
export type OrderBodyInput = z.infer<typeof orderBodyInput>;

/** One line of an import file: the same body with its number. */
export const orderImportLine = z.strictObject({ ...orderBodyFields, number: orderNumber }).superRefine(orderFits);
export type OrderImportLine = z.infer<typeof orderImportLine>;

/** `POST /api/v1/orders/batch`: at most this many orders in one request (docs/systems-of-record.md). */
export const ORDERS_BATCH_MAX = 1000;

/**
 * The bulk request's envelope. Each order is checked on its own with `orderImportLine` (the PUT's body with its
 * number), so one bad order is refused with its problems and the others go on.
 */
export const orderBatchInput = z.strictObject({ orders: z.array(z.unknown()).min(1).max(ORDERS_BATCH_MAX) });

/** The same request as documented (OpenAPI): every order in `orderImportLine`'s shape. */
export const orderBatchDocumented = z.strictObject({
  orders: z.array(orderImportLine).min(1).max(ORDERS_BATCH_MAX),
});

const problemOut = z.object({ path: z.string(), expected: z.string(), message: z.string() });

/** The answer: one result per order, in the request's order. */
export const orderBatchOutput = z.object({
  results: z.array(
    z.object({
      number: z.string().nullable(),
      outcome: z.enum(["created", "updated", "unchanged", "refused"]),
      code: z.string().optional(),
      message: z.string().optional(),
      problems: z.array(problemOut).optional(),
    }),
  ),
});
export type OrderBatchOutput = z.infer<typeof orderBatchOutput>;
