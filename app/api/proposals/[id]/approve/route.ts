import { BODY_LIMITS } from "@/lib/config/body-limits";
import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { traceDecision } from "@/lib/server/telemetry/decision-span";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, request, { params }) => {
  const proposalId = (await params).id;
  const body = await jsonBody(request, BODY_LIMITS.passkey);
  return traceDecision("approve", actor, proposalId, () => approveProposal(actor, { ...body, proposalId }));
});

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
