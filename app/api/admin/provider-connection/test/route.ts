import { staffRoute } from "@/lib/server/http/staff-route";
import { testProviderConnection } from "@/lib/server/admin/provider-connection/test-provider-connection";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/** POST /api/admin/provider-connection/test → {ok, source, problem?, message?}: one real call to the provider. */
export const POST = staffRoute(async (actor) => testProviderConnection(actor));

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
