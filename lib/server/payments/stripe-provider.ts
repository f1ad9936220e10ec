import "server-only";
import Stripe from "stripe";
import { z } from "zod";
import { classifyStripeError, type Classified } from "./classify-stripe-error";
import { noRetryHttpClient } from "./no-retry-http-client";
import type {
  CheckCredentialsResult,
  CreateRefundInput,
  CreateRefundResult,
  FindRefundsResult,
  PaymentProvider,
  ProviderRefund,
  ReadPaymentResult,
  ProviderRefundStatus,
  RetrieveRefundResult,
  UnknownOutcome,
  VerifyWebhookResult,
} from "./payment-provider";

// The PaymentProvider on the official `stripe` package. Pointed at Stripe, or (tests, demo) at the
// sandbox provider through host / port / protocol. No automatic retries of any kind.

export type StripeProviderConfig = {
  apiKey: string;
  host?: string;
  port?: number;
  protocol?: "http" | "https";
  /** Per request; an answer that takes longer is `unknown/timeout`. */
  timeoutMs: number;
  /** `whsec_…`; without it verifyWebhook refuses everything. */
  webhookSecret: string | null;
  /** Seconds a webhook timestamp may be old (default 300, Stripe's). */
  webhookToleranceSeconds?: number;
  onWarning?: (message: string, details: Record<string, unknown>) => void;
};

const metadataValue = z.string().max(500);
const createRefundInput = z.object({
  paymentIntent: z.string().min(1).max(255),
  amountMinor: z.number().int().positive().max(99_999_999_999),
  currency: z.string().regex(/^[A-Za-z]{3}$/),
  idempotencyKey: z.string().min(1).max(255),
  metadata: z
    .object({ proposalId: z.string().min(1).max(500), tenantId: z.string().min(1).max(500) })
    .catchall(metadataValue)
    .refine(
      (m) => Object.keys(m).length <= 50 && Object.keys(m).every((k) => k.length >= 1 && k.length <= 40),
      "at most 50 metadata keys of 1-40 characters",
    ),
  reason: z.enum(["requested_by_customer", "duplicate", "fraudulent"]).optional(),
});

const MAX_LIST_PAGES = 50;

export function createStripePaymentProvider(config: StripeProviderConfig): PaymentProvider {
  const protocol = config.protocol ?? "https";
  const stripe = new Stripe(config.apiKey, {
    host: config.host,
    port: config.port,
    protocol,
    timeout: config.timeoutMs,
    maxNetworkRetries: 0,
    httpClient: noRetryHttpClient(protocol),
    telemetry: false,
    appInfo: { name: "agent-approval-gateway" },
  });
  const warn = config.onWarning ?? (() => undefined);

  /**
   * A classified error as an unknown outcome: its own cause when Stripe's answer left the outcome open (timeout,
   * connection, 5xx, rate limit, authentication); otherwise — a read the provider refused — `server_error`, since
   * a refused read says nothing about the refund either, so nobody may act on it.
   */
  const asUnknown = (c: Classified): UnknownOutcome => ({
    outcome: "unknown",
    cause: c.kind === "unknown" ? c.cause : "server_error",
    message: c.message,
    statusCode: c.statusCode,
    requestId: c.requestId,
  });

  /** Every refund of a payment intent, newest first, all pages. */
  const listAllRefunds = async (
    paymentIntent: string,
  ): Promise<{ outcome: "ok"; refunds: ProviderRefund[] } | { outcome: "not_found" } | UnknownOutcome> => {
    const found: ProviderRefund[] = [];
    let startingAfter: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      let list: Stripe.ApiList<Stripe.Refund>;
      try {
        list = await stripe.refunds.list({
          payment_intent: paymentIntent,
          limit: 100,
          ...(startingAfter ? { starting_after: startingAfter } : {}),
        });
      } catch (error) {
        const c = classifyStripeError(error);
        if (c.kind === "not_found") return { outcome: "not_found" };
        return asUnknown(c);
      }
      for (const refund of list.data) found.push(toProviderRefund(refund));
      if (!list.has_more || list.data.length === 0) return { outcome: "ok", refunds: found };
      startingAfter = list.data[list.data.length - 1]!.id;
    }
    return {
      outcome: "unknown",
      cause: "server_error",
      message: `more than ${MAX_LIST_PAGES * 100} refunds on ${paymentIntent}`,
      statusCode: null,
      requestId: null,
    };
  };

  return {
    async createRefund(input: CreateRefundInput): Promise<CreateRefundResult> {
      // Invalid input is a programming error, not a provider answer: it throws, and nothing is sent.
      const valid = createRefundInput.parse(input);
      let refund: Stripe.Response<Stripe.Refund>;
      try {
        refund = await stripe.refunds.create(
          {
            payment_intent: valid.paymentIntent,
            amount: valid.amountMinor,
            metadata: valid.metadata,
            ...(valid.reason ? { reason: valid.reason } : {}),
          },
          { idempotencyKey: valid.idempotencyKey },
        );
      } catch (error) {
        const c = classifyStripeError(error);
        if (c.kind === "unknown") return asUnknown(c);
        if (c.kind === "not_found")
          return {
            outcome: "failed",
            reason: "payment_intent_not_found",
            refundId: null,
            code: "resource_missing",
            message: c.message,
            statusCode: c.statusCode,
            requestId: c.requestId,
          };
        return {
          outcome: "failed",
          reason: c.reason,
          refundId: null,
          code: c.code,
          message: c.message,
          statusCode: c.statusCode,
          requestId: c.requestId,
        };
      }
      const mapped = toProviderRefund(refund);
      const requestId = refund.lastResponse?.requestId ?? null;
      if (
        mapped.currency !== valid.currency.toUpperCase() ||
        mapped.amountMinor !== valid.amountMinor ||
        mapped.paymentIntent !== valid.paymentIntent
      ) {
        warn("provider refund differs from the request", {
          refundId: mapped.id,
          expected: { currency: valid.currency, amountMinor: valid.amountMinor, paymentIntent: valid.paymentIntent },
          got: { currency: mapped.currency, amountMinor: mapped.amountMinor, paymentIntent: mapped.paymentIntent },
        });
      }
      const replayed = headerOf(refund.lastResponse?.headers, "idempotent-replayed") === "true";
      if (mapped.status === "failed" || mapped.status === "canceled") {
        return {
          outcome: "failed",
          reason: "refund_failed",
          refundId: mapped.id,
          code: mapped.failureReason,
          message: `refund ${mapped.status}${mapped.failureReason ? `: ${mapped.failureReason}` : ""}`,
          statusCode: 200,
          requestId,
        };
      }
      return {
        outcome: mapped.status === "succeeded" ? "succeeded" : "pending",
        refundId: mapped.id,
        refund: mapped,
        replayed,
        requestId,
      };
    },

    async retrieveRefund(refundId: string): Promise<RetrieveRefundResult> {
      try {
        return { outcome: "found", refund: toProviderRefund(await stripe.refunds.retrieve(refundId)) };
      } catch (error) {
        const c = classifyStripeError(error);
        if (c.kind === "not_found") return { outcome: "not_found" };
        // Any other refusal of a read says nothing about the refund: unknown, so nobody acts on it.
        return asUnknown(c);
      }
    },

    async findRefunds({ paymentIntent, proposalId }): Promise<FindRefundsResult> {
      const all = await listAllRefunds(paymentIntent);
      // Stripe answers 404 for a payment intent it does not know: then it holds no refund of it.
      if (all.outcome === "not_found") return { outcome: "ok", refunds: [] };
      if (all.outcome !== "ok") return all;
      return { outcome: "ok", refunds: all.refunds.filter((r) => r.metadata.proposalId === proposalId) };
    },

    async readPayment(paymentIntent: string): Promise<ReadPaymentResult> {
      const [intent, refunds] = await Promise.all([
        stripe.paymentIntents.retrieve(paymentIntent).then(
          (pi) => ({ ok: true as const, pi }),
          (error: unknown) => ({ ok: false as const, error }),
        ),
        listAllRefunds(paymentIntent),
      ]);
      if (!intent.ok) {
        const c = classifyStripeError(intent.error);
        if (c.kind === "not_found") return { outcome: "not_found" };
        return asUnknown(c);
      }
      if (refunds.outcome === "not_found") return { outcome: "not_found" };
      if (refunds.outcome !== "ok") return refunds;
      const pi = intent.pi;
      return {
        outcome: "ok",
        snapshot: {
          paymentIntent: pi.id,
          capturedMinor: pi.amount_received,
          currency: pi.currency.toUpperCase(),
          refunds: refunds.refunds,
        },
      };
    },

    async checkCredentials(): Promise<CheckCredentialsResult> {
      try {
        await stripe.refunds.list({ limit: 1 });
        return { outcome: "ok" };
      } catch (error) {
        const c = classifyStripeError(error);
        if (c.kind === "unknown" && c.cause === "authentication")
          return { outcome: "refused", message: c.message, statusCode: c.statusCode };
        if (c.kind === "unknown") return asUnknown(c);
        // Any other refusal of a plain list: the key is accepted but may not read refunds.
        return { outcome: "refused", message: c.message, statusCode: c.statusCode };
      }
    },

    verifyWebhook(rawBody: string | Buffer, signatureHeader: string | null | undefined): VerifyWebhookResult {
      if (!config.webhookSecret) return { ok: false, reason: "no webhook secret is configured" };
      if (!signatureHeader) return { ok: false, reason: "missing Stripe-Signature header" };
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          signatureHeader,
          config.webhookSecret,
          config.webhookToleranceSeconds ?? 300,
        );
      } catch (error) {
        return { ok: false, reason: error instanceof Error ? error.message : "signature verification failed" };
      }
      const object = (event.data as { object?: { object?: string } } | undefined)?.object;
      const intentOf = (o: { payment_intent?: string | { id: string } | null }) =>
        typeof o.payment_intent === "string" ? o.payment_intent : (o.payment_intent?.id ?? null);
      const refund = object?.object === "refund" ? toProviderRefund(object as Stripe.Refund) : null;
      const dispute = object?.object === "dispute" ? (object as Stripe.Dispute) : null;
      return {
        ok: true,
        event: {
          id: event.id,
          type: event.type,
          createdAt: new Date(event.created * 1000),
          refund,
          paymentIntent: refund
            ? refund.paymentIntent || null
            : object?.object === "charge" || dispute
              ? intentOf(object as { payment_intent?: string | { id: string } | null })
              : null,
          dispute: dispute
            ? {
                id: dispute.id,
                amountMinor: dispute.amount,
                currency: dispute.currency.toUpperCase(),
                reason: dispute.reason ?? null,
              }
            : null,
        },
      };
    },
  };
}

const STATUSES: ProviderRefundStatus[] = ["pending", "requires_action", "succeeded", "failed", "canceled"];

export function toProviderRefund(refund: Stripe.Refund): ProviderRefund {
  const status = STATUSES.includes(refund.status as ProviderRefundStatus)
    ? (refund.status as ProviderRefundStatus)
    : "pending";
  return {
    id: refund.id,
    paymentIntent:
      typeof refund.payment_intent === "string" ? refund.payment_intent : (refund.payment_intent?.id ?? ""),
    amountMinor: refund.amount,
    currency: refund.currency.toUpperCase(),
    status,
    failureReason: refund.failure_reason ?? null,
    metadata: { ...(refund.metadata ?? {}) },
    createdAt: new Date(refund.created * 1000),
  };
}

function headerOf(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key ? headers[key] : undefined;
}
