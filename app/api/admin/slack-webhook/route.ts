import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";
import { setSlackWebhook } from "@/lib/server/notifications/slack-webhook-settings";
import { parseForm } from "@/lib/server/admin/zod-problem";
import { clearTenantWebhookInput, setTenantWebhookInput } from "@/lib/schemas/tenant-webhooks";

export const dynamic = "force-dynamic";

const noStore = { headers: { "Cache-Control": "no-store" } };

/** PUT /api/admin/slack-webhook {url, stepUpPassword?} → 200 {host}: the URL is stored, never shown back. */
export const PUT = staffRoute(async (actor, request) => {
  const { url } = parseForm(setTenantWebhookInput, await jsonBody(request));
  return Response.json(await setSlackWebhook(actor, { intent: "save", url }), noStore);
});

/** DELETE /api/admin/slack-webhook {stepUpPassword?} → 200 {host: null}: Slack messages stop. */
export const DELETE = staffRoute(async (actor, request) => {
  parseForm(
    clearTenantWebhookInput,
    request.headers.get("content-type")?.includes("json") ? await jsonBody(request) : {},
  );
  return Response.json(await setSlackWebhook(actor, { intent: "clear" }), noStore);
});

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("PUT", "DELETE");
