import { settleFromWebhook } from "@/lib/server/executions/settle-from-webhook";
import { log } from "@/lib/server/log";

export const dynamic = "force-dynamic";

// The payment provider's webhook: no session, authenticated by its signature over the raw body.
export async function POST(request: Request): Promise<Response> {
  try {
    const raw = await request.text();
    if (raw.length > 256 * 1024) return Response.json({ received: false, error: "body too large" }, { status: 413 });
    const result = await settleFromWebhook(raw, request.headers.get("stripe-signature"));
    return Response.json(result.body, { status: result.status });
  } catch (error) {
    log.error({ err: error instanceof Error ? error.message : String(error) }, "provider webhook failed");
    // 500 makes the provider retry later; no details leave the server.
    return Response.json({ received: false, error: "internal error" }, { status: 500 });
  }
}
