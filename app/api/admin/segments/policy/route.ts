import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { getBulkPolicy, setBulkPolicy } from "@/lib/server/admin/segments";

export const dynamic = "force-dynamic";

/**
 * GET /api/admin/segments/policy → {recipientsThreshold, dailyRecipientsCap, tolerancePercent, windowStartHour,
 * windowEndHour, timeZone, ownTimeZone, updatedAt}: the tenant's bulk-message policy in force (docs/admin-api.md).
 */
export const GET = staffRoute(async (actor) => getBulkPolicy(actor));

/**
 * PUT /api/admin/segments/policy {…the values to change, stepUpPassword?} → 200 {status: "applied", …the policy in
 * force} when it tightens or keeps every control, 202 {status: "awaiting_second_admin", change} when it loosens one.
 */
export const PUT = staffRoute(async (actor, request) => {
  const r = await setBulkPolicy(actor, await jsonBody(request));
  return Response.json(r, { status: r.status === "applied" ? 200 : 202, headers: { "Cache-Control": "no-store" } });
});
