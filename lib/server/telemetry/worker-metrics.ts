import "server-only";
import { createServer, type Server } from "node:http";
import { log } from "@/lib/server/log";
import { stampPeerAddress } from "./peer-address";
import { serveMetrics } from "./serve-metrics";

/**
 * A worker's own GET /metrics listener: its counters (executions, provider calls, …) happen in the worker
 * process, which has no Next.js server. Same guard and same gauges as the app's /api/metrics.
 */
export async function startWorkerMetrics(listen: { port: number; host: string }): Promise<Server> {
  stampPeerAddress();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://worker").pathname;
    if (req.method !== "GET" || path !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found.\n");
      return;
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    void serveMetrics(new Request(`http://worker${path}`, { headers }))
      .then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
        res.end(await response.text());
      })
      .catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen.port, listen.host, resolve);
  });
  log.info({ component: "metrics", port: listen.port, host: listen.host }, "worker metrics listening");
  return server;
}
