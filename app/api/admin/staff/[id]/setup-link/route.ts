import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { reissueSetupLink } from "@/lib/server/admin/reissue-setup-link";

export const dynamic = "force-dynamic";

/** POST /api/admin/staff/{id}/setup-link {stepUpPassword?} → 201 {setupUrl, expiresAt} (voids older links). */
export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, request, { params }) => {
  const link = await reissueSetupLink(actor, (await params).id, await jsonBody(request));
  return Response.json(link, { status: 201, headers: { "Cache-Control": "no-store" } });
});
