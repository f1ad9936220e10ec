import { APP_VERSION } from "@/lib/config/version";

export const dynamic = "force-dynamic";

// Liveness (docs/operations.md "Health"): the process serves HTTP. It touches nothing else, so a database or
// provider outage never gets a healthy instance restarted by its orchestrator; readiness says whether to route to it.
export function GET() {
  return Response.json(
    {
      status: "ok",
      version: APP_VERSION,
      checks: { process: { status: "ok", uptimeSeconds: Math.round(process.uptime()) } },
      time: new Date().toISOString(),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}
