import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { getBulkPolicy, setBulkPolicy } from "@/lib/server/admin/segments";

export const dynamic = "force-dynamic";

/**
 * GET /api/admin/segments/policy → {recipientsThreshold, dailyRecipientsCap, tolerancePercent, windowStartHour,
 * windowEndHour, timeZone, ownTimeZone, updatedAt}: the tenant's bulk-message policy in force (docs/admin-api.md).
 */
export const GET = staffRoute(async (actor) => getBulkPolicy(actor));

/** PUT /api/admin/segments/policy {…the values to change, stepUpPassword?} → 200 the policy in force. */
export const PUT = staffRoute(async (actor, request) => setBulkPolicy(actor, await jsonBody(request)));
