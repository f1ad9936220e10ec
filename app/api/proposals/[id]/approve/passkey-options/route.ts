import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { createApprovalOptions } from "@/lib/server/passkeys/create-approval-options";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, request, { params }) =>
  createApprovalOptions(actor, { ...(await jsonBody(request)), proposalId: (await params).id }),
);

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
