import { staffRoute } from "@/lib/server/http/staff-route";
import { claimProposal, releaseProposalClaim } from "@/lib/server/proposals/claim-proposal";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/** Take or renew the advisory "I'm reviewing this" claim (409 claimed_by_other when someone else holds it). */
export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, _request, { params }) =>
  claimProposal(actor, (await params).id),
);

/** Give it back (only the holder's claim is released). */
export const DELETE = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, _request, { params }) =>
  releaseProposalClaim(actor, (await params).id),
);

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST", "DELETE");
