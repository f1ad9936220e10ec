import { staffRoute } from "@/lib/server/http/staff-route";
import { sendTestWebhook } from "@/lib/server/admin/webhook-deliveries";

export const dynamic = "force-dynamic";

/** POST /api/admin/channels/{id}/decision-webhook/test → 202 {id} (a `webhook.test` delivery, see the history). */
export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, _request, { params }) => {
  return Response.json(await sendTestWebhook(actor, (await params).id), { status: 202 });
});
