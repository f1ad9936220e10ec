import "server-only";
import { randomUUID } from "node:crypto";
import { AppError, httpStatusFor } from "@/lib/domain/outcome";
import type { IntegrationScope } from "@/lib/schemas/orders-api";
import {
  authenticateIntegrationKey,
  type IntegrationCaller,
} from "@/lib/server/integrations/authenticate-integration-key";
import { knownError } from "@/lib/server/http/error-response";
import { BodyTooLargeError } from "@/lib/server/http/body-too-large";

type Handler<C> = (caller: IntegrationCaller, request: Request, context: C, traceId: string) => Promise<Response>;

/**
 * Wraps an Orders API route (`/api/v1/…`, docs/systems-of-record.md): the integration key with the scope the
 * route needs, then the handler; one error shape `{code, error:{message,…}, traceId}` with the code's HTTP
 * status, and for `invalid_arguments` the problems also at the top level (`problems:[{path, expected, message}]`).
 * No session and no same-origin check: these are server-to-server calls carrying a bearer key, never a cookie.
 */
export function integrationRoute<C>(scope: IntegrationScope, handler: Handler<C>) {
  return async (request: Request, context: C): Promise<Response> => {
    const traceId = `api-${randomUUID()}`;
    const headers = { "Cache-Control": "no-store", "X-Trace-Id": traceId };
    try {
      const caller = await authenticateIntegrationKey(request.headers.get("authorization"), scope);
      const response = await handler(caller, request, context, traceId);
      for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
      return response;
    } catch (error) {
      const known = knownError(error, request, "orders api failed", { label: "trace", id: traceId });
      const problems = known.code === "invalid_arguments" ? (known.details?.problems ?? []) : undefined;
      return Response.json(
        {
          code: known.code,
          error: { message: known.message, ...(known.details ?? {}) },
          ...(problems ? { problems } : {}),
          traceId,
        },
        { status: known instanceof BodyTooLargeError ? known.httpStatus : httpStatusFor(known.code), headers },
      );
    }
  };
}

/** A JSON body, or `invalid_arguments` with a problem at `$` (never a 500 on a body that is not JSON). */
export async function integrationJsonBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.length > 1_000_000)
    throw new AppError("invalid_arguments", "The body is larger than 1 MB.", {
      problems: [{ path: "$", expected: "at most 1 MB", message: "too large" }],
    });
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError("invalid_arguments", "The body is not JSON.", {
      problems: [{ path: "$", expected: "a JSON object", message: "not JSON" }],
    });
  }
}
