import { getConsistencyProof } from "@/lib/server/audit/get-log-proof";
import { publicRoute } from "@/lib/server/http/public-route";

export const dynamic = "force-dynamic";

/**
 * GET /api/audit/logs/{logId}/consistency?from=M&to=N — the RFC 9162 consistency proof between two sizes
 * (N ≤ the newest signed size), one base64 hash per line (text/plain), for monitors and witnesses.
 */
export const GET = publicRoute(async (request: Request, { params }: { params: Promise<{ logId: string }> }) => {
  const q = new URL(request.url).searchParams;
  const proof = await getConsistencyProof((await params).logId, q.get("from"), q.get("to"));
  return new Response(proof.map((h) => `${h}\n`).join(""), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
});
