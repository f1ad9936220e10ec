import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { createChannel } from "@/lib/server/admin/create-channel";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/** POST /api/admin/channels {slug, name, allowedTools} → 201 {id, slug, secret}; the secret is shown only here. */
export const POST = staffRoute(async (actor, request) => {
  const created = await createChannel(actor, await jsonBody(request));
  return Response.json(created, { status: 201, headers: { "Cache-Control": "no-store" } });
});

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
