import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { updateStaff } from "@/lib/server/admin/update-staff";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/**
 * PATCH /api/admin/staff/{id} {roles?, disabled?, unlock?, signOut?, stepUpPassword?} → {id, before, after};
 * an admin-level change → 202 {id, status: "awaiting_second_admin", change} (docs/admin-api.md).
 */
export const PATCH = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, request, { params }) => {
  const result = await updateStaff(actor, (await params).id, await jsonBody(request));
  return Response.json(result, { status: "change" in result ? 202 : 200, headers: { "Cache-Control": "no-store" } });
});

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("PATCH");
