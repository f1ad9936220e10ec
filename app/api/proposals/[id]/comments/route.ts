import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { addProposalComment } from "@/lib/server/proposals/add-proposal-comment";

export const dynamic = "force-dynamic";

/** A staff comment on the proposal (redacted, audited, shown in its history). */
export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, request, { params }) => {
  const proposalId = (await params).id;
  return addProposalComment(actor, { ...(await jsonBody(request)), proposalId });
});
