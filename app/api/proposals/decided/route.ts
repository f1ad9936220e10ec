import { staffRoute } from "@/lib/server/http/staff-route";
import { listDecidedProposals } from "@/lib/server/proposals/list-decided-proposals";

export const dynamic = "force-dynamic";

export const GET = staffRoute((actor, request) =>
  listDecidedProposals(actor, Object.fromEntries(new URL(request.url).searchParams)),
);
