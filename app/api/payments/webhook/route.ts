import { settleFromWebhook } from "@/lib/server/executions/settle-from-webhook";
import { providerWebhookResponse } from "@/lib/server/http/provider-webhook-route";

export const dynamic = "force-dynamic";

// The payment provider's webhook for every tenant without an own connection (the process-wide account).
export async function POST(request: Request): Promise<Response> {
  return providerWebhookResponse(request, (body, signature) => settleFromWebhook(body, signature));
}
