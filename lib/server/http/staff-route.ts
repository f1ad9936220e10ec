import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { requireActor, type Actor } from "@/lib/server/auth/actor";
import { isRoleRefusal } from "@/lib/domain/permissions";
import { recordAccessDenied } from "@/lib/server/auth/record-access-denied";
import { BODY_LIMITS } from "@/lib/config/body-limits";
import { actionOriginProblem, requestOrigin } from "@/lib/config/security-headers";
import { env } from "@/lib/server/env";
import { cappedBodyOrThrow } from "@/lib/server/http/body-too-large";
import { errorResponse, knownError } from "@/lib/server/http/error-response";

type Handler<C> = (actor: Actor, request: Request, context: C) => Promise<unknown>;

/**
 * Wraps a staff-facing JSON route handler: a signed-in actor (use cases check the permission
 * themselves), a same-origin check on every state-changing request (CSRF: the session cookie is
 * SameSite=Lax already; this refuses any cross-site POST outright), and one error shape
 * `{code, error:{message,…}}` with the status of the code. Never a stack trace.
 */
export function staffRoute<C>(handler: Handler<C>) {
  return async (request: Request, context: C): Promise<Response> => {
    let actor: Actor | null = null;
    try {
      if (request.method !== "GET" && request.method !== "HEAD") assertSameOrigin(request);
      actor = await requireActor();
      const result = await handler(actor, request, context);
      // A handler that needs another status (201 Created, 204 No Content) returns its own Response.
      if (result instanceof Response) return result;
      return Response.json(result, { headers: { "Cache-Control": "no-store" } });
    } catch (error) {
      // A role refusal is a denied access: audited (counted per minute, see recordAccessDenied).
      if (actor && isRoleRefusal(error) && !error.details.recorded) {
        await recordAccessDenied(actor, {
          permission: error.details.permission,
          path: `${request.method} ${new URL(request.url).pathname}`,
        });
      }
      return errorResponse(knownError(error, request, "staff route failed"));
    }
  };
}

/**
 * The request's Origin must be the host the browser used: the Host header, or X-Forwarded-Host only when
 * TRUST_PROXY=1 says a proxy in front sets it (anyone can send one otherwise). The same rule as server
 * actions (requestOrigin / actionOriginProblem in lib/config/security-headers.ts, used by proxy.ts).
 */
function assertSameOrigin(request: Request): void {
  const { host } = requestOrigin(request.headers, new URL(request.url), env().TRUST_PROXY);
  if (actionOriginProblem(request.method, request.headers.get("origin"), host))
    throw new AppError("permission_denied", "Cross-site request refused.");
}

/**
 * Reads a JSON body under its cap (BODY_LIMITS.staffJson unless the route needs more), before any parsing:
 * over the cap is 413 (BodyTooLargeError), anything that is not a JSON object is invalid_arguments.
 */
export async function jsonBody(
  request: Request,
  limit: number = BODY_LIMITS.staffJson,
): Promise<Record<string, unknown>> {
  const { text } = await cappedBodyOrThrow(request, limit);
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === "object" && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new AppError("invalid_arguments", "The request body must be a JSON object.");
}

/** The JSON body of a request that may have none (a DELETE): `{}` without a JSON content type, else jsonBody. */
export async function optionalJsonBody(request: Request): Promise<Record<string, unknown>> {
  return request.headers.get("content-type")?.includes("json") ? jsonBody(request) : {};
}
