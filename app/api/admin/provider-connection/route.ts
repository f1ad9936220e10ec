import { jsonBody, optionalJsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { getProviderConnection } from "@/lib/server/admin/provider-connection/get-provider-connection";
import { removeProviderConnection } from "@/lib/server/admin/provider-connection/remove-provider-connection";
import { setProviderConnection } from "@/lib/server/admin/provider-connection/set-provider-connection";

export const dynamic = "force-dynamic";

/** GET /api/admin/provider-connection → {source, apiKeyHint, updatedAt, webhookUrl, events, canStore}: never a secret. */
export const GET = staffRoute(async (actor) => getProviderConnection(actor));

/** PUT /api/admin/provider-connection {apiKey, webhookSecret, stepUpPassword?} → 200 {source: "tenant", apiKeyHint}. */
export const PUT = staffRoute(async (actor, request) => setProviderConnection(actor, await jsonBody(request)));

/** DELETE /api/admin/provider-connection {stepUpPassword?} → 200 {removed}: back to the default connection. */
export const DELETE = staffRoute(async (actor, request) =>
  removeProviderConnection(actor, await optionalJsonBody(request)),
);
