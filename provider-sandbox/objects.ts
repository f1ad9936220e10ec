// Stripe-shaped JSON: refund objects, lists, events and errors, as the official client expects them.

export const SANDBOX_API_VERSION = "2026-10-28.endive";

export type RefundStatus = "pending" | "succeeded" | "failed" | "canceled";

export type RefundRow = {
  id: string;
  account: string;
  payment_intent: string;
  charge: string;
  amount: string | number;
  currency: string;
  status: RefundStatus;
  reason: string | null;
  failure_reason: string | null;
  metadata: Record<string, string>;
  created: string | number;
};

export type StripeRefund = ReturnType<typeof refundObject>;

export function refundObject(row: RefundRow) {
  return {
    id: row.id,
    object: "refund" as const,
    amount: Number(row.amount),
    balance_transaction: null,
    charge: row.charge,
    created: Number(row.created),
    currency: row.currency,
    destination_details: null,
    ...(row.status === "failed"
      ? { failure_balance_transaction: null, failure_reason: row.failure_reason ?? "unknown" }
      : {}),
    metadata: row.metadata,
    payment_intent: row.payment_intent,
    reason: row.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: row.status,
    transfer_reversal: null,
  };
}

export function listObject<T>(data: T[], hasMore: boolean, url: string) {
  return { object: "list" as const, data, has_more: hasMore, url };
}

export function eventObject(input: {
  id: string;
  type: string;
  created: number;
  object: unknown;
  previous?: Record<string, unknown>;
  idempotencyKey?: string | null;
}) {
  return {
    id: input.id,
    object: "event" as const,
    api_version: SANDBOX_API_VERSION,
    created: input.created,
    data: { object: input.object, ...(input.previous ? { previous_attributes: input.previous } : {}) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: input.idempotencyKey ?? null },
    type: input.type,
  };
}

/** The charge behind a payment intent as `charge.refunded` carries it (Stripe no longer embeds its refund list). */
export function chargeObject(pi: {
  id: string;
  charge: string;
  amount: string | number;
  amount_refunded: string | number;
  currency: string;
  created: string | number;
}) {
  const amount = Number(pi.amount);
  const refunded = Number(pi.amount_refunded);
  return {
    id: pi.charge,
    object: "charge" as const,
    amount,
    amount_captured: amount,
    amount_refunded: refunded,
    captured: true,
    created: Number(pi.created),
    currency: pi.currency,
    livemode: false,
    paid: true,
    payment_intent: pi.id,
    refunded: refunded >= amount,
    status: "succeeded" as const,
  };
}

export function disputeObject(input: {
  id: string;
  charge: string;
  paymentIntent: string;
  amount: number;
  currency: string;
  reason: string;
  created: number;
}) {
  return {
    id: input.id,
    object: "dispute" as const,
    amount: input.amount,
    charge: input.charge,
    created: input.created,
    currency: input.currency,
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: input.paymentIntent,
    reason: input.reason,
    status: "needs_response" as const,
  };
}

export type StripeErrorType = "api_error" | "card_error" | "idempotency_error" | "invalid_request_error";

export type ErrorAnswer = {
  status: number;
  body: { error: { type: StripeErrorType; code?: string; message: string; param?: string } };
};

export function stripeError(
  status: number,
  type: StripeErrorType,
  message: string,
  extra: { code?: string; param?: string } = {},
): ErrorAnswer {
  return {
    status,
    body: {
      error: {
        type,
        ...(extra.code ? { code: extra.code } : {}),
        message,
        ...(extra.param ? { param: extra.param } : {}),
      },
    },
  };
}

export const nowUnix = () => Math.floor(Date.now() / 1000);
