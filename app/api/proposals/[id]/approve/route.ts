import { BODY_LIMITS } from "@/lib/config/body-limits";
import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";

export const dynamic = "force-dynamic";

export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, request, { params }) =>
  approveProposal(actor, { ...(await jsonBody(request, BODY_LIMITS.passkey)), proposalId: (await params).id }),
);
