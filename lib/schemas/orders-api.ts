// The Orders API's wire shapes (docs/systems-of-record.md): one schema for `PUT /api/v1/orders/{number}`, the
// import script's lines and the integration keys' admin form. snake_case like the agent API; money in integer
// minor units; every object strict, so a misspelled field is a problem with its path, not a silent drop.
import { z } from "zod";

export const integrationScopes = ["orders:write", "orders:read"] as const;
export type IntegrationScope = (typeof integrationScopes)[number];

export const issueIntegrationKeyInput = z.strictObject({
  label: z.string().trim().min(1).max(80),
  scopes: z.array(z.enum(integrationScopes)).min(1).max(integrationScopes.length),
  expiresAt: z.iso.datetime({ offset: true }).optional(),
  stepUpPassword: z.string().min(1).max(1024).optional(),
});
export type IssueIntegrationKeyInput = z.infer<typeof issueIntegrationKeyInput>;

/** An order reference as shops write them: "ORD-1001", "1001", "#1001" without the hash. */
export const orderNumber = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "letters, digits, '.', '_' or '-', at most 64");

const minor = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const currency = z.string().regex(/^[A-Z]{3}$/, "an ISO 4217 code in capitals, e.g. USD");
const timestamp = z.iso.datetime({ offset: true });
const text = (max: number) => z.string().trim().min(1).max(max);

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
  payment_reference: z.string().min(1).max(255).optional(),
});

export const orderBodyInput = z.strictObject({
  customer: z.strictObject({
    /** The id the channel's end-user token carries as `sub`. */
    id: z
      .string()
      .regex(/^[A-Za-z0-9_.:@-]{1,128}$/, "the customer's id in your shop, as your end-user tokens carry it in `sub`"),
    email: z.string().trim().max(320).pipe(z.email()),
    name: text(200),
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
});
export type OrderBodyInput = z.infer<typeof orderBodyInput>;

/** One line of an import file: the same body with its number. */
export const orderImportLine = orderBodyInput.extend({ number: orderNumber });
export type OrderImportLine = z.infer<typeof orderImportLine>;
