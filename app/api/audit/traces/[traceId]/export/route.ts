import { staffFileRoute } from "@/lib/server/http/file-route";
import { exportAuditTrace } from "@/lib/server/audit/export-audit-trace";

export const dynamic = "force-dynamic";

/** GET /api/audit/traces/{traceId}/export?format=csv|json — exactly what the trace page shows, as a file. */
export const GET = staffFileRoute<{ params: Promise<{ traceId: string }> }>(async (actor, request, { params }) =>
  exportAuditTrace(
    actor,
    decodeURIComponent((await params).traceId),
    new URL(request.url).searchParams.get("format") === "json" ? "json" : "csv",
  ),
);
