import { staffRoute } from "@/lib/server/http/staff-route";
import { getAuditCheckpoint } from "@/lib/server/audit/get-audit-checkpoint";

export const dynamic = "force-dynamic";

/** GET /api/audit/checkpoint[?consistencyFrom=N] — the tenant log's newest signed checkpoint (docs/audit.md). */
export const GET = staffRoute(async (actor, request) =>
  getAuditCheckpoint(actor, { consistencyFrom: new URL(request.url).searchParams.get("consistencyFrom") ?? undefined }),
);
