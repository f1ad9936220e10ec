import { resolveTraceId } from "@/lib/domain/agent-protocol";

export const dynamic = "force-dynamic";

/**
 * Any /api/… path no route serves: a JSON 404 in the common `{code, error, traceId}` shape instead of
 * Next's HTML page, so API clients (and agents) can read it. Existing routes always win over this catch-all.
 */
function notFound(request: Request): Response {
  const { traceId } = resolveTraceId(request.headers.get("traceparent"), request.headers.get("x-trace-id"));
  return Response.json(
    { code: "not_found", error: { message: "There is no API route at this path." }, traceId },
    { status: 404, headers: { "Cache-Control": "no-store", "X-Trace-Id": traceId } },
  );
}

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
