import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { classifyStripeError } from "./classify-stripe-error";

const E = Stripe.errors;
const raw = (statusCode: number, extra: Record<string, unknown> = {}) => ({
  statusCode,
  message: "m",
  requestId: "req_1",
  ...extra,
});

describe("classifyStripeError", () => {
  it("transport problems are unknown: timeout apart from other connection errors", () => {
    const timeout = new E.StripeConnectionError({
      message: "Request aborted due to timeout being reached (1500ms)",
      detail: Object.assign(new TypeError("ETIMEDOUT"), { code: "ETIMEDOUT" }),
    });
    expect(classifyStripeError(timeout)).toMatchObject({ kind: "unknown", cause: "timeout", statusCode: null });
    const reset = new E.StripeConnectionError({
      message: "An error occurred with our connection to Stripe.",
      detail: Object.assign(new Error("closed"), { code: "CONNECTION_CLOSED" }),
    });
    expect(classifyStripeError(reset)).toMatchObject({ kind: "unknown", cause: "connection" });
  });

  it("5xx, 409, 429, 401/403 and unreadable answers are unknown", () => {
    expect(classifyStripeError(new E.StripeAPIError(raw(500, { type: "api_error" }) as never))).toMatchObject({
      kind: "unknown",
      cause: "server_error",
      statusCode: 500,
      requestId: "req_1",
    });
    expect(
      classifyStripeError(new E.StripeAPIError({ message: "Invalid JSON received from the Stripe API" })),
    ).toMatchObject({
      kind: "unknown",
      cause: "server_error",
    });
    expect(classifyStripeError(new E.StripeAPIError(raw(409, { type: "idempotency_error" }) as never))).toMatchObject({
      kind: "unknown",
      cause: "idempotency_in_progress",
    });
    expect(classifyStripeError(new E.StripeRateLimitError(raw(429) as never))).toMatchObject({
      kind: "unknown",
      cause: "rate_limited",
    });
    expect(classifyStripeError(new E.StripeAuthenticationError(raw(401) as never))).toMatchObject({
      kind: "unknown",
      cause: "authentication",
    });
    expect(classifyStripeError(new E.StripePermissionError(raw(403) as never))).toMatchObject({
      kind: "unknown",
      cause: "authentication",
    });
    expect(classifyStripeError(new Error("something else"))).toMatchObject({ kind: "unknown", cause: "server_error" });
  });

  it("clear 4xx refusals are definitive failures with a reason", () => {
    expect(
      classifyStripeError(new E.StripeIdempotencyError(raw(400, { type: "idempotency_error" }) as never)),
    ).toMatchObject({
      kind: "failed",
      reason: "idempotency_key_reused",
    });
    expect(
      classifyStripeError(new E.StripeInvalidRequestError(raw(400, { code: "amount_too_large" }) as never)),
    ).toMatchObject({
      kind: "failed",
      reason: "amount_too_large",
      code: "amount_too_large",
    });
    expect(
      classifyStripeError(new E.StripeInvalidRequestError(raw(400, { code: "charge_already_refunded" }) as never)),
    ).toMatchObject({
      kind: "failed",
      reason: "already_refunded",
    });
    expect(
      classifyStripeError(new E.StripeInvalidRequestError(raw(400, { code: "parameter_missing" }) as never)),
    ).toMatchObject({
      kind: "failed",
      reason: "invalid_request",
    });
    expect(
      classifyStripeError(new E.StripeInvalidRequestError(raw(404, { code: "resource_missing" }) as never)),
    ).toMatchObject({
      kind: "not_found",
      statusCode: 404,
    });
  });
});
