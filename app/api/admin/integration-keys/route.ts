import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { issueIntegrationKey } from "@/lib/server/integrations/issue-integration-key";
import { listIntegrationKeys } from "@/lib/server/integrations/list-integration-keys";

export const dynamic = "force-dynamic";

/** GET /api/admin/integration-keys → {keys:[{id, label, keyPrefix, scopes, expiresAt, revokedAt, lastUsedAt, createdAt, status}]}. */
export const GET = staffRoute(async (actor) => listIntegrationKeys(actor));

/** POST /api/admin/integration-keys {label, scopes, expiresAt?} → 201 {id, key, keyPrefix, scopes}; the key is shown only here. */
export const POST = staffRoute(async (actor, request) => {
  const issued = await issueIntegrationKey(actor, await jsonBody(request));
  return Response.json(issued, { status: 201, headers: { "Cache-Control": "no-store" } });
});
