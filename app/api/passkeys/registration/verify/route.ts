import { BODY_LIMITS } from "@/lib/config/body-limits";
import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { registerPasskey } from "@/lib/server/passkeys/register-passkey";

export const dynamic = "force-dynamic";

export const POST = staffRoute(async (actor, request) =>
  registerPasskey(actor, await jsonBody(request, BODY_LIMITS.passkey)),
);
