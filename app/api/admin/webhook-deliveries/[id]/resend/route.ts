import { staffRoute } from "@/lib/server/http/staff-route";
import { resendWebhookDelivery } from "@/lib/server/admin/webhook-deliveries";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/** POST /api/admin/webhook-deliveries/{id}/resend → 202 {id, status: "pending"} (same webhook id and body). */
export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, _request, { params }) => {
  return Response.json(await resendWebhookDelivery(actor, (await params).id), { status: 202 });
});

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
