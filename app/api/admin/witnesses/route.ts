import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { addWitness } from "@/lib/server/admin/witnesses/add-witness";
import { listWitnesses } from "@/lib/server/admin/witnesses/list-witnesses";

export const dynamic = "force-dynamic";

/** GET /api/admin/witnesses → {witnesses, quorum, origin, policy}: the tenant's witnesses, quorum and the auditor's policy file. */
export const GET = staffRoute(async (actor) => listWitnesses(actor));

/** POST /api/admin/witnesses {name, vkey, url} → 201 {id, name}: applies at once (a tightening). */
export const POST = staffRoute(async (actor, request) =>
  Response.json(await addWitness(actor, await jsonBody(request)), {
    status: 201,
    headers: { "Cache-Control": "no-store" },
  }),
);
