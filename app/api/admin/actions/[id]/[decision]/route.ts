import { AppError } from "@/lib/domain/outcome";
import { optionalJsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { approveDeclaration, rejectDeclaration, retireDeclaration } from "@/lib/server/admin/action-declarations";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/**
 * POST /api/admin/actions/{id}/approve {stepUpPassword?} → {status: "active"}; /reject and /cancel → {status:
 * "rejected"}; /retire {stepUpPassword?} → {status: "retired"}.
 */
export const POST = staffRoute<{ params: Promise<{ id: string; decision: string }> }>(
  async (actor, request, { params }) => {
    const { id, decision } = await params;
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw new AppError("not_found", "No such declared action.");
    if (decision === "approve") return approveDeclaration(actor, id, await optionalJsonBody(request));
    if (decision === "retire") return retireDeclaration(actor, id, await optionalJsonBody(request));
    if (decision === "reject" || decision === "cancel") return rejectDeclaration(actor, id, decision);
    throw new AppError("not_found", "No such action.");
  },
);

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
