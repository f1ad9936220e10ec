import { getCheckpointNote } from "@/lib/server/audit/get-checkpoint-note";
import { publicRoute } from "@/lib/server/http/public-route";

export const dynamic = "force-dynamic";

/**
 * GET /api/audit/logs/{logId}/checkpoint[?size=N] — the log's newest (or size-N) checkpoint as a C2SP signed
 * note with its witnesses' cosignatures appended (text/plain; public: origin, size and root only). docs/audit.md.
 */
export const GET = publicRoute(async (request: Request, { params }: { params: Promise<{ logId: string }> }) => {
  const size = new URL(request.url).searchParams.get("size");
  const note = await getCheckpointNote((await params).logId, size ?? undefined);
  return new Response(note, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
});
