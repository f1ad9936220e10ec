import { staffRoute } from "@/lib/server/http/staff-route";
import { testActionEndpoint } from "@/lib/server/admin/action-endpoint/test-action-endpoint";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/** POST /api/admin/action-endpoint/test → {ok, status, latencyMs} | {ok: false, problem, message, status}: a signed GET of a random key. */
export const POST = staffRoute(async (actor) => testActionEndpoint(actor));

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
