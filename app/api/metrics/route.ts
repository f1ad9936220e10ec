import { serveMetrics } from "@/lib/server/telemetry/serve-metrics";

export const dynamic = "force-dynamic";

/** GET /api/metrics: Prometheus text (docs/observability.md). */
export const GET = serveMetrics;
