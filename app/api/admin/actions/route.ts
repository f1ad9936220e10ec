import { isAppError } from "@/lib/domain/outcome";
import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { listDeclarations, proposeDeclaration } from "@/lib/server/admin/action-declarations";

export const dynamic = "force-dynamic";

/** GET /api/admin/actions → {data: DeclarationRow[]}: each name's newest decided version and its pending one. */
export const GET = staffRoute(async (actor) => listDeclarations(actor));

/**
 * POST /api/admin/actions <the declaration> + {stepUpPassword?} → 201 {declaration} (pending; the name's next version).
 * Problems → 400 {code: "validation_failed", error: {message, problems}}; a version already pending → 409 conflict.
 */
export const POST = staffRoute(async (actor, request) => {
  try {
    return Response.json(await proposeDeclaration(actor, await jsonBody(request)), {
      status: 201,
      headers: { "Cache-Control": "no-store" },
    });
  } catch (error) {
    if (!isAppError(error)) throw error;
    const details = error.details ?? {};
    if (error.code === "invalid_arguments" && Array.isArray(details.problems))
      return refusal(400, "validation_failed", error.message, details);
    if (error.code === "rejected" && details.reason === "declaration_pending")
      return refusal(409, "conflict", error.message, details);
    throw error;
  }
});

function refusal(status: number, code: string, message: string, details: Record<string, unknown>): Response {
  return Response.json({ code, error: { message, ...details } }, { status, headers: { "Cache-Control": "no-store" } });
}
