import { settleFromTenantWebhook } from "@/lib/server/executions/settle-from-webhook";
import { providerWebhookResponse } from "@/lib/server/http/provider-webhook-route";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

// One tenant's own payment provider webhook, verified with that tenant's webhook secret (Admin → Payment provider).
export async function POST(
  request: Request,
  { params }: { params: Promise<{ tenantSlug: string }> },
): Promise<Response> {
  const { tenantSlug } = await params;
  return providerWebhookResponse(request, (body, signature) => settleFromTenantWebhook(tenantSlug, body, signature));
}

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
