import "server-only";
import { BODY_LIMITS, readCappedBody } from "@/lib/config/body-limits";
import type { WebhookResult } from "@/lib/server/executions/settle-from-webhook";
import { log } from "@/lib/server/log";

/**
 * The HTTP side of a payment provider webhook (the process-wide one and each tenant's): no session, authenticated by
 * the signature over the raw body, which is read capped while streaming so an unauthenticated sender cannot make us
 * buffer a huge body. A failure answers 500 (the provider retries later) with no details.
 */
export async function providerWebhookResponse(
  request: Request,
  settle: (body: string, signature: string | null) => Promise<WebhookResult>,
): Promise<Response> {
  try {
    const body = await readCappedBody(request, BODY_LIMITS.agent);
    if (!body.ok)
      return Response.json(
        { received: false, error: body.reason === "too_large" ? "body too large" : "unreadable body" },
        { status: body.reason === "too_large" ? 413 : 400 },
      );
    const result = await settle(body.text, request.headers.get("stripe-signature"));
    return Response.json(result.body, { status: result.status });
  } catch (error) {
    log.error({ err: error instanceof Error ? error.message : String(error) }, "provider webhook failed");
    return Response.json({ received: false, error: "internal error" }, { status: 500 });
  }
}
