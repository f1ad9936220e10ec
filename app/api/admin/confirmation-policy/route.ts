import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { getConfirmationPolicy, setConfirmationPolicy } from "@/lib/server/admin/confirmation-policy";

export const dynamic = "force-dynamic";

/** GET /api/admin/confirmation-policy → {kinds, available: [{kind, floor}]}: who confirms, as the tenant raised it. */
export const GET = staffRoute(async (actor) =>
  Response.json(await getConfirmationPolicy(actor), { headers: { "Cache-Control": "no-store" } }),
);

/**
 * PUT /api/admin/confirmation-policy {kinds, stepUpPassword?} → 200 {status: "applied", kinds} when it keeps every
 * kind already listed, 202 {status: "awaiting_second_admin", change} when it drops one (a loosening waits for a second
 * admin).
 */
export const PUT = staffRoute(async (actor, request) => {
  const r = await setConfirmationPolicy(actor, await jsonBody(request));
  return Response.json(r, { status: r.status === "applied" ? 200 : 202, headers: { "Cache-Control": "no-store" } });
});
