import { staffRoute } from "@/lib/server/http/staff-route";
import { createRegistrationOptions } from "@/lib/server/passkeys/create-registration-options";

export const dynamic = "force-dynamic";

export const POST = staffRoute((actor) => createRegistrationOptions(actor));
