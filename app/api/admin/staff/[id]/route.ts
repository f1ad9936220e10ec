import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { updateStaff } from "@/lib/server/admin/update-staff";

export const dynamic = "force-dynamic";

/** PATCH /api/admin/staff/{id} {roles?, disabled?, unlock?, signOut?, stepUpPassword?} → {id, before, after}. */
export const PATCH = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, request, { params }) =>
  updateStaff(actor, (await params).id, await jsonBody(request)),
);
