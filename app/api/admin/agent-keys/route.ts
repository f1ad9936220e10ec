import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { issueAgentKey } from "@/lib/server/admin/issue-agent-key";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/** POST /api/admin/agent-keys {channel, label, tools?, expiresAt?} → 201 {id, key, …}; the key is shown only here. */
export const POST = staffRoute(async (actor, request) => {
  const issued = await issueAgentKey(actor, await jsonBody(request));
  return Response.json(issued, { status: 201, headers: { "Cache-Control": "no-store" } });
});

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
