import { staffRoute } from "@/lib/server/http/staff-route";
import { listNotificationDeliveries } from "@/lib/server/admin/list-notification-deliveries";

export const dynamic = "force-dynamic";

/** GET /api/admin/notification-deliveries?channel=slack|email → 200 {deliveries: […]} (Slack messages and e-mails, newest 100). */
export const GET = staffRoute(async (actor, request) => {
  const deliveries = await listNotificationDeliveries(actor, {
    channel: new URL(request.url).searchParams.get("channel"),
  });
  return Response.json({ deliveries }, { headers: { "Cache-Control": "no-store" } });
});
