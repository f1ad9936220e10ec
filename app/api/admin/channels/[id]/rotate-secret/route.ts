import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { rotateChannelSecret } from "@/lib/server/admin/rotate-channel-secret";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/** POST /api/admin/channels/{id}/rotate-secret {overlapMinutes} → 201 {id, slug, secret, previousSecretValidUntil}. */
export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, request, { params }) => {
  const rotated = await rotateChannelSecret(actor, (await params).id, await jsonBody(request));
  return Response.json(rotated, { status: 201, headers: { "Cache-Control": "no-store" } });
});

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
