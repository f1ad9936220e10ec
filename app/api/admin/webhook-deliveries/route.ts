import { staffRoute } from "@/lib/server/http/staff-route";
import { listWebhookDeliveries } from "@/lib/server/admin/webhook-deliveries";

export const dynamic = "force-dynamic";

/** GET /api/admin/webhook-deliveries?target=review|decision&channelId=… → 200 {deliveries: […]} (newest 100). */
export const GET = staffRoute(async (actor, request) => {
  const q = new URL(request.url).searchParams;
  const deliveries = await listWebhookDeliveries(actor, { target: q.get("target"), channelId: q.get("channelId") });
  return Response.json({ deliveries }, { headers: { "Cache-Control": "no-store" } });
});
