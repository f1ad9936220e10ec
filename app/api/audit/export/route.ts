import { auditSearchParams } from "@/lib/schemas/audit";
import { staffFileRoute } from "@/lib/server/http/file-route";
import { exportAuditEvents } from "@/lib/server/audit/export-audit-events";

export const dynamic = "force-dynamic";

/** GET /api/audit/export?format=csv|json&<the search filters> — a download of the whole result (capped). */
export const GET = staffFileRoute(async (actor, request) => {
  const params = new URL(request.url).searchParams;
  return exportAuditEvents(actor, auditSearchParams(params), params.get("format") === "json" ? "json" : "csv");
});
