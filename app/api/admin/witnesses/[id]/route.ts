import { staffRoute } from "@/lib/server/http/staff-route";
import { removeWitness } from "@/lib/server/admin/witnesses/remove-witness";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/** DELETE /api/admin/witnesses/{id} → 202 {status: "awaiting_second_admin", change}: a loosening waits for a second admin. */
export const DELETE = staffRoute(async (actor, _request, ctx: { params: Promise<{ id: string }> }) =>
  Response.json(await removeWitness(actor, (await ctx.params).id), {
    status: 202,
    headers: { "Cache-Control": "no-store" },
  }),
);

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("DELETE");
