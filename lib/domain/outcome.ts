// The one list of outcome codes (docs/design.md "Outcome codes"). Agents branch on these; keep them stable.

export const successCodes = ["ok", "approval_required", "result_pending"] as const;
export type SuccessCode = (typeof successCodes)[number];

export const errorCodes = [
  "unknown_tool",
  "invalid_arguments",
  "permission_denied",
  "not_found",
  "expired",
  "invalidated",
  "rejected",
  "limit_exceeded",
  // A system we must ask (the payment provider, the shop's order source) did not answer; carries retry_after_seconds.
  "temporarily_unavailable",
  "internal_error",
  // Not a tool outcome: a missing or invalid credential (agent key, staff session). HTTP 401.
  "unauthenticated",
  // Not a tool outcome: another reviewer holds the advisory claim on a proposal (staff only). HTTP 409.
  "claimed_by_other",
] as const;
export type ErrorCode = (typeof errorCodes)[number];

/** Codes only staff endpoints answer; never part of the agent's tool-result contract. */
export const staffOnlyErrorCodes = ["unauthenticated", "claimed_by_other"] as const satisfies readonly ErrorCode[];

/** The error codes an agent may read in a tool result (docs/design.md "Outcome codes"). */
export const agentErrorCodes: readonly ErrorCode[] = errorCodes.filter(
  (c) => !(staffOnlyErrorCodes as readonly string[]).includes(c),
);

export type OutcomeCode = SuccessCode | ErrorCode;

/**
 * The one error type of the application. `message` must be safe to show to the caller: never a
 * stack, SQL, header, secret or another customer's or tenant's data. `details` likewise.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.details = details;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

const httpStatusByCode: Record<ErrorCode, number> = {
  unknown_tool: 404,
  invalid_arguments: 400,
  permission_denied: 403,
  not_found: 404,
  expired: 409,
  invalidated: 409,
  rejected: 409,
  limit_exceeded: 429,
  temporarily_unavailable: 503,
  internal_error: 500,
  unauthenticated: 401,
  claimed_by_other: 409,
};

/** HTTP status for staff-facing endpoints (the agent gateway always answers 200, see docs/design.md). */
export function httpStatusFor(code: ErrorCode): number {
  return httpStatusByCode[code];
}
