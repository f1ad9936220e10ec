import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { editProposalAmount } from "@/lib/server/proposals/edit-proposal-amount";

export const dynamic = "force-dynamic";

export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, request, { params }) =>
  editProposalAmount(actor, { ...(await jsonBody(request)), proposalId: (await params).id }),
);
