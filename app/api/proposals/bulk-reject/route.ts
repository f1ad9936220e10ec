import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { bulkRejectProposals } from "@/lib/server/proposals/bulk-reject-proposals";

export const dynamic = "force-dynamic";

/** Several rejections with one customer message, each its own audited decision (one result per proposal). */
export const POST = staffRoute(async (actor, request) => bulkRejectProposals(actor, await jsonBody(request)));
