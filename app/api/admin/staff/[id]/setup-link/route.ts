import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { reissueSetupLink } from "@/lib/server/admin/reissue-setup-link";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/**
 * POST /api/admin/staff/{id}/setup-link {stepUpPassword?} → 201 {setupUrl, expiresAt} (voids older links);
 * for an admin → 202 {status: "awaiting_second_admin", change} (docs/admin-api.md).
 */
export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, request, { params }) => {
  const link = await reissueSetupLink(actor, (await params).id, await jsonBody(request));
  return Response.json(link, { status: "change" in link ? 202 : 201, headers: { "Cache-Control": "no-store" } });
});

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
