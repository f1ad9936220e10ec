import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { sendTestNotification } from "@/lib/server/admin/send-test-notification";

export const dynamic = "force-dynamic";

/** POST /api/admin/notification-deliveries/test {channel: "slack"|"email"} → 202 {id} (a test through the notification outbox). */
export const POST = staffRoute(async (actor, request) => {
  return Response.json(await sendTestNotification(actor, await jsonBody(request)), { status: 202 });
});
