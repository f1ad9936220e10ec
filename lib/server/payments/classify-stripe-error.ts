import "server-only";
import type { RefundFailureReason, UnknownCause } from "./payment-provider";

// Sorts what the official client throws into "definitively refused" and "unknown". The rule that
// matters: anything that is not a clear 4xx refusal of *this* request is unknown, because the
// provider may have committed the refund.

type StripeLikeError = {
  type?: string;
  rawType?: string;
  statusCode?: number;
  code?: string;
  message?: string;
  requestId?: string;
  detail?: unknown;
};

export type Classified =
  | {
      kind: "failed";
      reason: RefundFailureReason;
      code: string | null;
      message: string;
      statusCode: number | null;
      requestId: string | null;
    }
  | { kind: "unknown"; cause: UnknownCause; message: string; statusCode: number | null; requestId: string | null }
  | { kind: "not_found"; message: string; statusCode: number; requestId: string | null };

export function classifyStripeError(error: unknown): Classified {
  const e = (typeof error === "object" && error !== null ? error : {}) as StripeLikeError;
  const statusCode = typeof e.statusCode === "number" ? e.statusCode : null;
  const requestId = typeof e.requestId === "string" ? e.requestId : null;
  const message = typeof e.message === "string" && e.message ? e.message : String(error);
  const code = typeof e.code === "string" ? e.code : null;
  const unknown = (cause: UnknownCause): Classified => ({ kind: "unknown", cause, message, statusCode, requestId });
  const failed = (reason: RefundFailureReason): Classified => ({
    kind: "failed",
    reason,
    code,
    message,
    statusCode,
    requestId,
  });

  if (e.type === "StripeConnectionError") return unknown(isTimeout(e) ? "timeout" : "connection");
  // No status: an unreadable answer ("Invalid JSON received") or something unexpected. Unknown.
  if (statusCode === null) return unknown("server_error");
  if (statusCode === 429) return unknown("rate_limited");
  if (statusCode === 401 || statusCode === 403) return unknown("authentication");
  if (statusCode === 409) return unknown("idempotency_in_progress");
  if (statusCode >= 500) return unknown("server_error");
  if (e.rawType === "idempotency_error" || e.type === "StripeIdempotencyError") return failed("idempotency_key_reused");
  if (statusCode === 404 && code === "resource_missing") return { kind: "not_found", message, statusCode, requestId };
  if (code === "amount_too_large") return failed("amount_too_large");
  if (code === "charge_already_refunded") return failed("already_refunded");
  if (statusCode >= 400) return failed("invalid_request");
  // A 1xx-3xx that the client still turned into an error (e.g. an unreadable body): unknown.
  return unknown("server_error");
}

function isTimeout(e: StripeLikeError): boolean {
  const detail = e.detail as { code?: string } | undefined;
  return detail?.code === "ETIMEDOUT" || /timeout/i.test(e.message ?? "");
}
