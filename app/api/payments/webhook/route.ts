import { settleFromWebhook } from "@/lib/server/executions/settle-from-webhook";
import { log } from "@/lib/server/log";
import { BODY_LIMITS, readCappedBody } from "@/lib/config/body-limits";

export const dynamic = "force-dynamic";

// The payment provider's webhook: no session, authenticated by its signature over the raw body.
export async function POST(request: Request): Promise<Response> {
  try {
    // Capped while streaming: an unauthenticated sender cannot make us buffer a huge body.
    const body = await readCappedBody(request, BODY_LIMITS.agent);
    if (!body.ok)
      return Response.json(
        { received: false, error: body.reason === "too_large" ? "body too large" : "unreadable body" },
        { status: body.reason === "too_large" ? 413 : 400 },
      );
    const result = await settleFromWebhook(body.text, request.headers.get("stripe-signature"));
    return Response.json(result.body, { status: result.status });
  } catch (error) {
    log.error({ err: error instanceof Error ? error.message : String(error) }, "provider webhook failed");
    // 500 makes the provider retry later; no details leave the server.
    return Response.json({ received: false, error: "internal error" }, { status: 500 });
  }
}
