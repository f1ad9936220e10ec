import { staffRoute } from "@/lib/server/http/staff-route";
import { testProviderConnection } from "@/lib/server/admin/provider-connection/test-provider-connection";

export const dynamic = "force-dynamic";

/** POST /api/admin/provider-connection/test → {ok, source, problem?, message?}: one real call to the provider. */
export const POST = staffRoute(async (actor) => testProviderConnection(actor));
