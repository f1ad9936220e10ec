// The production HTTP server (what `npm start` runs instead of `next start`; docs/operations.md "Logs"): Next's
// own request handler behind node:http, so that every request gets one JSON access-log line (method, route,
// status, ms, traceId) and nothing prints a banner that is not JSON. Configured by the supervisor's
// environment: PORT, BIND_HOST. Run without `--conditions=react-server` (Next sets up its own React runtimes).
import { performance } from "node:perf_hooks";
import { accessLogRoute } from "../lib/domain/access-log";
import { resolveTraceId } from "../lib/domain/agent-protocol";
import { createAppServer } from "./lib/http-server";
import { jsonLog } from "./lib/json-log";

Object.assign(process.env, { NODE_ENV: "production" });
const log = jsonLog("approval-gateway");
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.BIND_HOST || "0.0.0.0";

const { default: next } = await import("next");
const app = next({ dev: false, hostname, port, dir: process.cwd() });
const handle = app.getRequestHandler();
await app.prepare();

const server = createAppServer((req, res) => {
  const started = performance.now();
  res.once("close", () => {
    // The app's own trace id when it answered with one (agent API), else the caller's, else a fresh one.
    const answered = res.getHeader("x-trace-id");
    const traceId =
      typeof answered === "string" && answered
        ? answered
        : resolveTraceId(String(req.headers.traceparent ?? "") || null, String(req.headers["x-trace-id"] ?? "") || null)
            .traceId;
    log.info(
      {
        method: req.method,
        route: accessLogRoute(req.url),
        status: res.statusCode,
        ms: Math.round((performance.now() - started) * 10) / 10,
        traceId,
      },
      "request",
    );
  });
  void handle(req, res);
});
server.listen(port, hostname, () => log.info({ port, host: hostname }, "listening"));

// Graceful: no new connections, idle keep-alive ones closed, requests in flight get up to 8 s to finish.
function stop() {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  setTimeout(() => {
    server.closeAllConnections();
    process.exit(0);
  }, 8_000).unref();
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
