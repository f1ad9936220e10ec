import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { sendTestNotification } from "@/lib/server/admin/send-test-notification";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/** POST /api/admin/notification-deliveries/test {channel: "slack"|"email"} → 202 {id} (a test through the notification outbox). */
export const POST = staffRoute(async (actor, request) => {
  return Response.json(await sendTestNotification(actor, await jsonBody(request)), { status: 202 });
});

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
