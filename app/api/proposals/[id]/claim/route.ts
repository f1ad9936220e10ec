import { staffRoute } from "@/lib/server/http/staff-route";
import { claimProposal, releaseProposalClaim } from "@/lib/server/proposals/claim-proposal";

export const dynamic = "force-dynamic";

/** Take or renew the advisory "I'm reviewing this" claim (409 claimed_by_other when someone else holds it). */
export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, _request, { params }) =>
  claimProposal(actor, (await params).id),
);

/** Give it back (only the holder's claim is released). */
export const DELETE = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, _request, { params }) =>
  releaseProposalClaim(actor, (await params).id),
);
