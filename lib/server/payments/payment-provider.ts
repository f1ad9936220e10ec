import "server-only";

// The one interface through which the application moves money (docs/design.md "Execution and the
// provider"). Its answers make the unknown explicit: a transport problem never throws, it comes back
// as `outcome: "unknown"`, and only the reconciler decides what happens next (never a blind retry).

/** Stripe's refund states. `requires_action` waits on the customer and is reported as pending. */
export type ProviderRefundStatus = "pending" | "requires_action" | "succeeded" | "failed" | "canceled";

export type ProviderRefund = {
  id: string;
  paymentIntent: string;
  amountMinor: number;
  /** ISO 4217, upper case (the provider speaks lower case). */
  currency: string;
  status: ProviderRefundStatus;
  failureReason: string | null;
  metadata: Record<string, string>;
  createdAt: Date;
};

/** What the provider stores with a refund; the reconciler finds refunds by `proposalId`. */
export type RefundMetadata = { proposalId: string; tenantId: string } & Record<string, string>;

export type CreateRefundInput = {
  paymentIntent: string;
  amountMinor: number;
  /** The currency the caller expects; checked against the provider's answer (a mismatch is logged). */
  currency: string;
  /** Durable: committed with the execution row *before* the call, and reused (never renewed) on re-sends. */
  idempotencyKey: string;
  metadata: RefundMetadata;
  reason?: "requested_by_customer" | "duplicate" | "fraudulent";
};

/**
 * Why an outcome is unknown. For every cause the refund may exist or come to exist, so the caller
 * records `needs_reconciliation` and asks later (findRefunds / retrieveRefund):
 * - `timeout`: no answer in time; the provider may have committed (accept-then-hang).
 * - `connection`: connection refused, reset or closed before a full answer (drop-after-commit).
 * - `server_error`: a 5xx (or an unreadable answer); the provider may or may not have committed.
 * - `idempotency_in_progress`: 409, another request with the same key is still running.
 * - `rate_limited`: 429, this request was not executed; ask again later.
 * - `authentication`: 401/403, this request was refused before executing (credentials); fix, reconcile.
 */
export type UnknownCause =
  "timeout" | "connection" | "server_error" | "idempotency_in_progress" | "rate_limited" | "authentication";

export type UnknownOutcome = {
  outcome: "unknown";
  cause: UnknownCause;
  message: string;
  statusCode: number | null;
  requestId: string | null;
};

/**
 * A definitive refusal: the refund was not made and retrying the same request cannot change that.
 * - `refund_failed`: the provider created the refund and it failed or was canceled (`refundId` set).
 * - `amount_too_large` / `already_refunded`: less is left on the payment intent than asked.
 * - `payment_intent_not_found`: the provider does not know the payment intent.
 * - `idempotency_key_reused`: the key was first used with other parameters (a bug on our side).
 * - `invalid_request`: any other 4xx refusal of the parameters.
 */
export type RefundFailureReason =
  | "refund_failed"
  | "amount_too_large"
  | "already_refunded"
  | "payment_intent_not_found"
  | "idempotency_key_reused"
  | "invalid_request";

export type CreateRefundResult =
  | {
      outcome: "succeeded" | "pending";
      refundId: string;
      refund: ProviderRefund;
      replayed: boolean;
      requestId: string | null;
    }
  | {
      outcome: "failed";
      reason: RefundFailureReason;
      refundId: string | null;
      code: string | null;
      message: string;
      statusCode: number | null;
      requestId: string | null;
    }
  | UnknownOutcome;

export type RetrieveRefundResult =
  { outcome: "found"; refund: ProviderRefund } | { outcome: "not_found" } | UnknownOutcome;

export type FindRefundsResult = { outcome: "ok"; refunds: ProviderRefund[] } | UnknownOutcome;

/** What the provider holds for one payment, read live: what it captured and every refund on it, made by anyone. */
export type PaymentSnapshot = {
  paymentIntent: string;
  capturedMinor: number;
  currency: string;
  refunds: ProviderRefund[];
};

export type ReadPaymentResult =
  { outcome: "ok"; snapshot: PaymentSnapshot } | { outcome: "not_found" } | UnknownOutcome;

export type ProviderWebhookEvent = {
  id: string;
  /** e.g. refund.created, refund.updated, refund.failed */
  type: string;
  createdAt: Date;
  /** The refund the event is about, when it is about one. */
  refund: ProviderRefund | null;
  /** The payment intent a charge or dispute event is about (charge.refunded, charge.dispute.created). */
  paymentIntent: string | null;
  /** A dispute event's dispute. */
  dispute: { id: string; amountMinor: number; currency: string; reason: string | null } | null;
};

export type CheckCredentialsResult =
  { outcome: "ok" } | { outcome: "refused"; message: string; statusCode: number | null } | UnknownOutcome;

export type VerifyWebhookResult = { ok: true; event: ProviderWebhookEvent } | { ok: false; reason: string };

export interface PaymentProvider {
  createRefund(input: CreateRefundInput): Promise<CreateRefundResult>;
  retrieveRefund(refundId: string): Promise<RetrieveRefundResult>;
  /** Every refund of the payment intent whose metadata.proposalId matches, newest first (all pages). */
  findRefunds(query: { paymentIntent: string; proposalId: string }): Promise<FindRefundsResult>;
  /** The payment intent and all its refunds (both asked at once: one round trip of latency). */
  readPayment(paymentIntent: string): Promise<ReadPaymentResult>;
  /**
   * Whether the credentials work: one cheap read the key needs anyway (list one refund). `refused` = the provider
   * answered 401/403 (a wrong, revoked or too restricted key); `unknown` = it did not answer usably.
   */
  checkCredentials(): Promise<CheckCredentialsResult>;
  /** Checks a webhook's `Stripe-Signature` over the exact raw body; never throws. */
  verifyWebhook(rawBody: string | Buffer, signatureHeader: string | null | undefined): VerifyWebhookResult;
}
