import { staffRoute } from "@/lib/server/http/staff-route";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";
import { setReviewWebhook } from "@/lib/server/admin/set-review-webhook";
import { tenantWebhookHandlers } from "@/lib/server/admin/tenant-webhook-route";

export const dynamic = "force-dynamic";

const handlers = tenantWebhookHandlers(setReviewWebhook);

/** PUT /api/admin/review-webhook {url, stepUpPassword?} → 200 {url, secret}: a new signing secret, shown this once. */
export const PUT = staffRoute(handlers.save);

/** DELETE /api/admin/review-webhook {stepUpPassword?} → 200 {url: null, secret: null}: the webhook is off. */
export const DELETE = staffRoute(handlers.clear);

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("PUT", "DELETE");
