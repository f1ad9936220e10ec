import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { removePasskey, renamePasskey } from "@/lib/server/passkeys/manage-passkey";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** PATCH /api/passkeys/{id} {name} — rename one of your own passkeys. */
export const PATCH = staffRoute<Ctx>(async (actor, request, { params }) =>
  renamePasskey(actor, decodeURIComponent((await params).id), await jsonBody(request)),
);

/** DELETE /api/passkeys/{id} {stepUpPassword?} → 204 — remove one of your own passkeys (step-up). */
export const DELETE = staffRoute<Ctx>(async (actor, request, { params }) => {
  const body =
    request.headers.get("content-length") && request.headers.get("content-length") !== "0"
      ? await jsonBody(request)
      : {};
  await removePasskey(actor, decodeURIComponent((await params).id), body);
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
});

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("PATCH", "DELETE");
