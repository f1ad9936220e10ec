import "server-only";
import { randomUUID } from "node:crypto";
import { AppError, httpStatusFor, isAppError } from "@/lib/domain/outcome";
import { log } from "@/lib/server/log";
import { BodyTooLargeError } from "@/lib/server/http/body-too-large";

/** The HTTP status of a refusal: the code's, except a body over its cap (413). */
function httpStatusOf(error: AppError): number {
  return error instanceof BodyTooLargeError ? error.httpStatus : httpStatusFor(error.code);
}

/** The common error shape `{code, error:{message,…}}` with its HTTP status. */
export function errorResponse(error: AppError): Response {
  return Response.json(
    { code: error.code, error: { message: error.message, ...(error.details ?? {}) } },
    { status: httpStatusOf(error), headers: { "Cache-Control": "no-store" } },
  );
}

/**
 * What a route wrapper answers for a thrown error: an `AppError` as it is (its message is safe to show by
 * contract); anything else becomes `internal_error` whose message carries only a reference (a fresh id, or the
 * request's trace id), and is logged here with that reference, the path and the error's message — never a stack
 * for the caller.
 */
export function knownError(
  error: unknown,
  request: Request,
  what: string,
  reference: { label: "reference" | "trace"; id: string } = { label: "reference", id: randomUUID() },
): AppError {
  if (isAppError(error)) return error;
  log.error(
    {
      [reference.label === "trace" ? "traceId" : "ref"]: reference.id,
      err: error instanceof Error ? error.message : String(error),
      path: new URL(request.url).pathname,
    },
    what,
  );
  return new AppError("internal_error", `Something went wrong on our side (${reference.label} ${reference.id}).`);
}
