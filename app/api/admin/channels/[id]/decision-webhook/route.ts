import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { clearDecisionWebhook, setDecisionWebhook } from "@/lib/server/admin/set-decision-webhook";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/** PUT /api/admin/channels/{id}/decision-webhook {url, rotateSecret?, overlapMinutes?} → 200 {channelId, url, secret (once), previousSecretValidUntil}. */
export const PUT = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, request, { params }) => {
  const result = await setDecisionWebhook(actor, (await params).id, await jsonBody(request));
  return Response.json(result, { headers: { "Cache-Control": "no-store" } });
});

/** DELETE /api/admin/channels/{id}/decision-webhook → 200 {channelId, url: null}. */
export const DELETE = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, _request, { params }) => {
  return Response.json(await clearDecisionWebhook(actor, (await params).id), {
    headers: { "Cache-Control": "no-store" },
  });
});

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("PUT", "DELETE");
