import { BODY_LIMITS } from "@/lib/config/body-limits";
import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { traceDecision } from "@/lib/server/telemetry/decision-span";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";

export const dynamic = "force-dynamic";

export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, request, { params }) => {
  const proposalId = (await params).id;
  const body = await jsonBody(request, BODY_LIMITS.passkey);
  return traceDecision("approve", actor, proposalId, () => approveProposal(actor, { ...body, proposalId }));
});
