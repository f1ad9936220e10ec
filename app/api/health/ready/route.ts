import { checkReadiness } from "@/lib/server/health/check-readiness";

export const dynamic = "force-dynamic";

// Readiness (docs/operations.md "Health"): 200 when every check passes, 503 naming the failing ones otherwise.
export async function GET() {
  const readiness = await checkReadiness();
  return Response.json(readiness, {
    status: readiness.status === "ready" ? 200 : 503,
    headers: { "Cache-Control": "no-store" },
  });
}
