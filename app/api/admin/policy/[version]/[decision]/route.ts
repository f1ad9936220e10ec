import { AppError } from "@/lib/domain/outcome";
import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { decidePolicyChange } from "@/lib/server/admin/policy/decide-policy-change";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/** POST /api/admin/policy/{version}/approve|reject {stepUpPassword?} → {version, status} (a second admin decides). */
export const POST = staffRoute<{ params: Promise<{ version: string; decision: string }> }>(
  async (actor, request, { params }) => {
    const { version, decision } = await params;
    if (decision !== "approve" && decision !== "reject") throw new AppError("not_found", "No such action.");
    if (!/^\d{1,9}$/.test(version)) throw new AppError("not_found", "No such policy version.");
    return decidePolicyChange(actor, Number(version), decision, await jsonBody(request));
  },
);

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
