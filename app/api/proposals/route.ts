import { staffRoute } from "@/lib/server/http/staff-route";
import { listPendingProposals } from "@/lib/server/proposals/list-pending-proposals";

export const dynamic = "force-dynamic";

export const GET = staffRoute((actor, request) =>
  listPendingProposals(actor, Object.fromEntries(new URL(request.url).searchParams)),
);
