import "server-only";
import { errorResponse, knownError } from "@/lib/server/http/error-response";

/**
 * Wraps a public, read-only route handler (no session: what it serves is public by nature — sizes, roots,
 * hashes, public keys): the common error shape `{code, error:{message,…}}` with the status of the code.
 */
export function publicRoute<C>(handler: (request: Request, context: C) => Promise<Response>) {
  return async (request: Request, context: C): Promise<Response> => {
    try {
      return await handler(request, context);
    } catch (error) {
      return errorResponse(knownError(error, request, "public route failed"));
    }
  };
}
