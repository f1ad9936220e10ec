import { staffRoute } from "@/lib/server/http/staff-route";
import { resendNotification } from "@/lib/server/admin/resend-notification";

export const dynamic = "force-dynamic";

/** POST /api/admin/notification-deliveries/{id}/resend → 202 {id, status: "pending"} (a failed Slack message or e-mail, attempted again). */
export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, _request, { params }) => {
  return Response.json(await resendNotification(actor, (await params).id), { status: 202 });
});
