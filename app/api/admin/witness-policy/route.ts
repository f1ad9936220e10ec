import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { setWitnessQuorum } from "@/lib/server/admin/witnesses/set-witness-quorum";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/**
 * PUT /api/admin/witness-policy {quorum} → 200 {status: "applied", quorum} when it does not lower the quorum,
 * 202 {status: "awaiting_second_admin", change} when it does (a loosening waits for a second admin).
 */
export const PUT = staffRoute(async (actor, request) => {
  const r = await setWitnessQuorum(actor, await jsonBody(request));
  return Response.json(r, { status: r.status === "applied" ? 200 : 202, headers: { "Cache-Control": "no-store" } });
});

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("PUT");
