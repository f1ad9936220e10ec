import "server-only";
import { resolveTraceId } from "@/lib/domain/agent-protocol";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A route's answer to a method it does not serve, marked with the methods it does (tests read `allows`). */
export type MethodNotAllowedHandler = ((request: Request) => Response) & { readonly allows: readonly HttpMethod[] };

/**
 * The `GET` of an API route that serves other methods only. Without it Next.js answers such a request `405`
 * with an empty body; every API error is JSON, so this answers `405` in the common `{code, error, traceId}`
 * shape (code `not_found`: there is nothing to GET here), with the `Allow` header and `error.allow` naming what
 * the route does serve. Exported as `GET` by each such route file (tests/integration/api-methods.test.ts
 * walks them all).
 */
export function methodNotAllowed(...allows: HttpMethod[]): MethodNotAllowedHandler {
  const handler = (request: Request): Response => {
    const { traceId } = resolveTraceId(request.headers.get("traceparent"), request.headers.get("x-trace-id"));
    return Response.json(
      {
        code: "not_found",
        error: {
          message: `This API route does not answer ${request.method}; it accepts ${allows.join(", ")}.`,
          allow: allows,
        },
        traceId,
      },
      {
        status: 405,
        headers: { Allow: allows.join(", "), "Cache-Control": "no-store", "X-Trace-Id": traceId },
      },
    );
  };
  return Object.assign(handler, { allows });
}
