import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { rejectProposal } from "@/lib/server/proposals/reject-proposal";

export const dynamic = "force-dynamic";

export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, request, { params }) =>
  rejectProposal(actor, { ...(await jsonBody(request)), proposalId: (await params).id }),
);
