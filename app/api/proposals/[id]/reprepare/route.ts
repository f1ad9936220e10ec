import { staffRoute } from "@/lib/server/http/staff-route";
import { reprepareProposal } from "@/lib/server/proposals/reprepare-proposal";

export const dynamic = "force-dynamic";

export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, _request, { params }) =>
  reprepareProposal(actor, { proposalId: (await params).id }),
);
