import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { addProposalComment } from "@/lib/server/proposals/add-proposal-comment";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/** A staff comment on the proposal (redacted, audited, shown in its history). */
export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, request, { params }) => {
  const proposalId = (await params).id;
  return addProposalComment(actor, { ...(await jsonBody(request)), proposalId });
});

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
