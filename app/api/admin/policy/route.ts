import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { getPolicy } from "@/lib/server/admin/policy/get-policy";
import { proposePolicyChange } from "@/lib/server/admin/policy/propose-policy-change";

export const dynamic = "force-dynamic";

/** GET /api/admin/policy → {version, values, pending, history}. */
export const GET = staffRoute(async (actor) => getPolicy(actor));

/** POST /api/admin/policy {values} → 201 {version, status: "active" | "awaiting_second_admin", changes}. */
export const POST = staffRoute(async (actor, request) => {
  const result = await proposePolicyChange(actor, await jsonBody(request));
  return Response.json(result, { status: 201, headers: { "Cache-Control": "no-store" } });
});
