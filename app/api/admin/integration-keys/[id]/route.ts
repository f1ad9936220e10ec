import { staffRoute } from "@/lib/server/http/staff-route";
import { revokeIntegrationKey } from "@/lib/server/integrations/revoke-integration-key";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/** DELETE /api/admin/integration-keys/{id} → 204 (revoked; also when it already was). */
export const DELETE = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, _request, { params }) => {
  await revokeIntegrationKey(actor, (await params).id);
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
});

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("DELETE");
