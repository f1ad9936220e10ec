import { staffRoute } from "@/lib/server/http/staff-route";
import { getProposal } from "@/lib/server/proposals/get-proposal";

export const dynamic = "force-dynamic";

export const GET = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, _request, { params }) =>
  getProposal(actor, (await params).id),
);
