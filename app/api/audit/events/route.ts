import { auditSearchParams } from "@/lib/schemas/audit";
import { staffRoute } from "@/lib/server/http/staff-route";
import { searchAuditEvents } from "@/lib/server/audit/search-audit-events";

export const dynamic = "force-dynamic";

/** GET /api/audit/events?traceId=…&from=…&to=…&actor=…&action=…&outcome=…&proposalId=…&subject=…&cursor=… */
export const GET = staffRoute(async (actor, request) =>
  searchAuditEvents(actor, auditSearchParams(new URL(request.url).searchParams)),
);
