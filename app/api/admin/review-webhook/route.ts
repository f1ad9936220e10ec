import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";
import { setReviewWebhook } from "@/lib/server/admin/set-review-webhook";
import { parseForm } from "@/lib/server/admin/zod-problem";
import { clearTenantWebhookInput, setTenantWebhookInput } from "@/lib/schemas/tenant-webhooks";

export const dynamic = "force-dynamic";

const noStore = { headers: { "Cache-Control": "no-store" } };

/** PUT /api/admin/review-webhook {url, stepUpPassword?} → 200 {url, secret}: a new signing secret, shown this once. */
export const PUT = staffRoute(async (actor, request) => {
  const { url } = parseForm(setTenantWebhookInput, await jsonBody(request));
  return Response.json(await setReviewWebhook(actor, { intent: "save", url }), noStore);
});

/** DELETE /api/admin/review-webhook {stepUpPassword?} → 200 {url: null, secret: null}: the webhook is off. */
export const DELETE = staffRoute(async (actor, request) => {
  parseForm(
    clearTenantWebhookInput,
    request.headers.get("content-type")?.includes("json") ? await jsonBody(request) : {},
  );
  return Response.json(await setReviewWebhook(actor, { intent: "clear" }), noStore);
});

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("PUT", "DELETE");
