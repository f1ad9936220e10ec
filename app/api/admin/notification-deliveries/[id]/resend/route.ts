import { staffRoute } from "@/lib/server/http/staff-route";
import { resendNotification } from "@/lib/server/admin/resend-notification";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/** POST /api/admin/notification-deliveries/{id}/resend → 202 {id, status: "pending"} (a failed Slack message or e-mail, attempted again). */
export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, _request, { params }) => {
  return Response.json(await resendNotification(actor, (await params).id), { status: 202 });
});

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
