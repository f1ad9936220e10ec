import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { bulkRejectProposals } from "@/lib/server/proposals/bulk-reject-proposals";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/** Several rejections with one customer message, each its own audited decision (one result per proposal). */
export const POST = staffRoute(async (actor, request) => bulkRejectProposals(actor, await jsonBody(request)));

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
