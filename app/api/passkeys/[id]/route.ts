import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { removePasskey, renamePasskey } from "@/lib/server/passkeys/manage-passkey";

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
