import { settleFromWebhook } from "@/lib/server/executions/settle-from-webhook";
import { providerWebhookResponse } from "@/lib/server/http/provider-webhook-route";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

// The payment provider's webhook for every tenant without an own connection (the process-wide account).
export async function POST(request: Request): Promise<Response> {
  return providerWebhookResponse(request, (body, signature) => settleFromWebhook(body, signature));
}

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
