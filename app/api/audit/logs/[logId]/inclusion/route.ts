import { getInclusionProof } from "@/lib/server/audit/get-log-proof";
import { publicRoute } from "@/lib/server/http/public-route";

export const dynamic = "force-dynamic";

/** GET /api/audit/logs/{logId}/inclusion?index=I&size=N — leaf I's hash and its inclusion proof in the tree of size N (base64). */
export const GET = publicRoute(async (request: Request, { params }: { params: Promise<{ logId: string }> }) => {
  const q = new URL(request.url).searchParams;
  return Response.json(await getInclusionProof((await params).logId, q.get("index"), q.get("size")), {
    headers: { "Cache-Control": "public, max-age=3600" },
  });
});
