import { AppError } from "@/lib/domain/outcome";
import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { decideAdminChange } from "@/lib/server/admin/decide-admin-change";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

const decisions = ["approve", "reject", "cancel"] as const;

/** POST /api/admin/changes/{id}/approve|reject|cancel {stepUpPassword?} → {id, status, setupUrl?, staffId?, expiresAt?}. */
export const POST = staffRoute<{ params: Promise<{ id: string; decision: string }> }>(
  async (actor, request, { params }) => {
    const { id, decision } = await params;
    const known = decisions.find((d) => d === decision);
    if (!known) throw new AppError("not_found", "No such action.");
    return decideAdminChange(actor, id, known, await jsonBody(request));
  },
);

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
