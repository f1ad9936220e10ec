import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { inviteStaff } from "@/lib/server/admin/invite-staff";
import { listStaff } from "@/lib/server/admin/list-staff";

export const dynamic = "force-dynamic";

/** GET /api/admin/staff?q= — the tenant's staff (search on name or email). */
export const GET = staffRoute(async (actor, request) => ({
  staff: await listStaff(actor, { q: new URL(request.url).searchParams.get("q") ?? undefined }),
}));

/**
 * POST /api/admin/staff {email, name, roles} → 201 {id, setupUrl, expiresAt}; with the admin role
 * → 202 {status: "awaiting_second_admin", change} (docs/admin-api.md).
 */
export const POST = staffRoute(async (actor, request) => {
  const invited = await inviteStaff(actor, await jsonBody(request));
  return Response.json(invited, { status: "change" in invited ? 202 : 201, headers: { "Cache-Control": "no-store" } });
});
