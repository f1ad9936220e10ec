import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { rotateChannelSecret } from "@/lib/server/admin/rotate-channel-secret";

export const dynamic = "force-dynamic";

/** POST /api/admin/channels/{id}/rotate-secret {overlapMinutes} → 201 {id, slug, secret, previousSecretValidUntil}. */
export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, request, { params }) => {
  const rotated = await rotateChannelSecret(actor, (await params).id, await jsonBody(request));
  return Response.json(rotated, { status: 201, headers: { "Cache-Control": "no-store" } });
});
