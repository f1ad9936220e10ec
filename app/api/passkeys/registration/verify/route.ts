import { BODY_LIMITS } from "@/lib/config/body-limits";
import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { registerPasskey } from "@/lib/server/passkeys/register-passkey";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

export const POST = staffRoute(async (actor, request) =>
  registerPasskey(actor, await jsonBody(request, BODY_LIMITS.passkey)),
);

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
