import { staffRoute } from "@/lib/server/http/staff-route";
import { createRegistrationOptions } from "@/lib/server/passkeys/create-registration-options";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

export const POST = staffRoute((actor) => createRegistrationOptions(actor));

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
