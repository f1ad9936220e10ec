import { staffRoute } from "@/lib/server/http/staff-route";
import { listAdminChanges } from "@/lib/server/admin/list-admin-changes";

export const dynamic = "force-dynamic";

/** GET /api/admin/changes → {pending: [...], alone} — admin changes waiting for a second admin. */
export const GET = staffRoute(async (actor) => listAdminChanges(actor));
