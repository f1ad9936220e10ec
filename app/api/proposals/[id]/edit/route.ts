import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { editProposalAmount } from "@/lib/server/proposals/edit-proposal-amount";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, request, { params }) =>
  editProposalAmount(actor, { ...(await jsonBody(request)), proposalId: (await params).id }),
);

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
