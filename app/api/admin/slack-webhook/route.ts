import { staffRoute } from "@/lib/server/http/staff-route";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";
import { setSlackWebhook } from "@/lib/server/notifications/slack-webhook-settings";
import { tenantWebhookHandlers } from "@/lib/server/admin/tenant-webhook-route";

export const dynamic = "force-dynamic";

const handlers = tenantWebhookHandlers(setSlackWebhook);

/** PUT /api/admin/slack-webhook {url, stepUpPassword?} → 200 {host}: the URL is stored, never shown back. */
export const PUT = staffRoute(handlers.save);

/** DELETE /api/admin/slack-webhook {stepUpPassword?} → 200 {host: null}: Slack messages stop. */
export const DELETE = staffRoute(handlers.clear);

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("PUT", "DELETE");
