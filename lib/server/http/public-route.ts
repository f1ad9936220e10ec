import "server-only";
import { randomUUID } from "node:crypto";
import { AppError, httpStatusFor, isAppError } from "@/lib/domain/outcome";
import { log } from "@/lib/server/log";

/**
 * Wraps a public, read-only route handler (no session: what it serves is public by nature — sizes, roots,
 * hashes, public keys): the common error shape `{code, error:{message,…}}` with the status of the code.
 */
export function publicRoute<C>(handler: (request: Request, context: C) => Promise<Response>) {
  return async (request: Request, context: C): Promise<Response> => {
    try {
      return await handler(request, context);
    } catch (error) {
      const e = isAppError(error)
        ? error
        : new AppError("internal_error", `Something went wrong on our side (reference ${randomUUID()}).`);
      if (!isAppError(error))
        log.error(
          { err: error instanceof Error ? error.message : String(error), path: new URL(request.url).pathname },
          "public route failed",
        );
      return Response.json(
        { code: e.code, error: { message: e.message, ...(e.details ?? {}) } },
        { status: httpStatusFor(e.code), headers: { "Cache-Control": "no-store" } },
      );
    }
  };
}
