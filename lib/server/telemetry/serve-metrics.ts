import "server-only";
import { metricsAccess } from "@/lib/domain/metrics-access";
import { metricsToken, trustProxy } from "@/lib/server/env";
import { log } from "@/lib/server/log";
import { metrics } from "./metrics";
import { peerAddress } from "./peer-address";
import { readDatabaseGauges } from "./read-database-gauges";

const text = (body: string, status: number, extra: Record<string, string> = {}) =>
  new Response(body, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...extra },
  });

/**
 * GET /api/metrics (the app) and GET /metrics (a worker's own listener, worker-metrics.ts): the guard of
 * lib/domain/metrics-access.ts, then the database gauges and this process's counters in the Prometheus text
 * format. The database not answering is a 503 (Prometheus marks the target down), never a stale gauge.
 */
export async function serveMetrics(req: Request): Promise<Response> {
  const access = metricsAccess(
    {
      authorization: req.headers.get("authorization"),
      peer: peerAddress(req.headers),
      forwardedFor: req.headers.get("x-forwarded-for"),
    },
    { token: metricsToken(), trustProxy: trustProxy() },
  );
  if (!access.ok)
    return text(
      `${access.reason}\n`,
      access.status,
      access.status === 401 ? { "www-authenticate": 'Bearer realm="metrics"' } : {},
    );
  try {
    await readDatabaseGauges();
  } catch (error) {
    log.error(
      { component: "metrics", err: { name: (error as Error | null)?.name } },
      "metrics: database gauges could not be read",
    );
    return text("The database did not answer.\n", 503);
  }
  const registry = metrics().registry;
  return text(await registry.metrics(), 200, { "content-type": registry.contentType });
}
