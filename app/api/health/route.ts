import { checkHealth } from "@/lib/server/health/check-health";

export const dynamic = "force-dynamic";

export async function GET() {
  const health = await checkHealth();
  // 503 only when the app cannot serve (no database). A broken audit chain is reported as "degraded" in the
  // body with 200: the app keeps answering (a load balancer must not take it out), monitoring alerts on it.
  const status = health.checks.database === "ok" ? 200 : 503;
  return Response.json(health, { status, headers: { "Cache-Control": "no-store" } });
}
