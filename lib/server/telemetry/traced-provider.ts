import "server-only";
import { SpanKind, type Span } from "@opentelemetry/api";
import { noteOutsideEffect } from "@/lib/server/db/retry";
import type { PaymentProvider } from "@/lib/server/payments/payment-provider";
import { metrics } from "./metrics";
import { markError, withSpan } from "./tracing";

type Answer = {
  outcome: string;
  cause?: string;
  reason?: string;
  refundId?: string | null;
  requestId?: string | null;
  statusCode?: number | null;
};

/** What a span and the counters keep of a provider answer: its outcome and ids, never amounts' owners or messages. */
function record(span: Span, operation: string, answer: Answer): void {
  span.setAttribute("approvalgw.provider.outcome", answer.outcome);
  if (answer.cause) span.setAttribute("approvalgw.provider.cause", answer.cause);
  if (answer.reason) span.setAttribute("approvalgw.provider.failure_reason", answer.reason);
  if (answer.refundId) span.setAttribute("approvalgw.provider.refund_id", answer.refundId);
  if (answer.requestId) span.setAttribute("approvalgw.provider.request_id", answer.requestId);
  if (typeof answer.statusCode === "number") span.setAttribute("http.response.status_code", answer.statusCode);
  // "unknown" is the provider not answering usably (timeout, 5xx, dropped connection): the error rate.
  if (answer.outcome === "unknown") markError(span, answer.cause ?? "unknown");
  metrics().providerCalls.inc({ operation, outcome: answer.outcome });
}

/**
 * The payment provider with one CLIENT span per call (`payment_provider create_refund`, …) and the provider
 * counters; `createRefund` answers also count as executions by result. Webhook verification is local: not traced.
 */
export function tracedProvider(provider: PaymentProvider, name: string): PaymentProvider {
  const call = <A extends Answer>(operation: string, attributes: Record<string, string>, run: () => Promise<A>) =>
    withSpan(
      `payment_provider ${operation}`,
      { "approvalgw.provider.name": name, "approvalgw.provider.operation": operation, ...attributes },
      async (span) => {
        const answer = await run();
        record(span, operation, answer);
        return answer;
      },
      { kind: SpanKind.CLIENT },
    );
  return {
    createRefund: async (input) => {
      // Money moves: a transaction around this call (none today) must never be replayed (lib/server/db/retry.ts).
      noteOutsideEffect();
      const answer = await call(
        "create_refund",
        {
          "approvalgw.proposal.id": input.metadata.proposalId,
          "approvalgw.idempotency_key": input.idempotencyKey,
          "approvalgw.provider.payment_ref": input.paymentIntent,
        },
        () => provider.createRefund(input),
      );
      // The payment provider refunds: its sends are the refund kind's.
      metrics().executions.inc({ kind: "refund", result: answer.outcome });
      return answer;
    },
    retrieveRefund: (refundId) =>
      call("retrieve_refund", { "approvalgw.provider.refund_id": refundId }, () => provider.retrieveRefund(refundId)),
    findRefunds: (query) =>
      call(
        "find_refunds",
        { "approvalgw.proposal.id": query.proposalId, "approvalgw.provider.payment_ref": query.paymentIntent },
        () => provider.findRefunds(query),
      ),
    readPayment: (paymentIntent) =>
      call("read_payment", { "approvalgw.provider.payment_ref": paymentIntent }, () =>
        provider.readPayment(paymentIntent),
      ),
    checkCredentials: () => call("check_credentials", {}, () => provider.checkCredentials()),
    verifyWebhook: (rawBody, signature) => provider.verifyWebhook(rawBody, signature),
  };
}
