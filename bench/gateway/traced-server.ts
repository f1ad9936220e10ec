// A child process of `npm run bench:gateway -- --tracing`: the product's tool-call route handler on node:http
// with the OpenTelemetry SDK registered as the app registers it (lib/server/telemetry/setup.ts). Exporting when
// the parent passes OTEL_EXPORTER_OTLP_ENDPOINT (its local OTLP receiver), not configured otherwise: the same
// script for both sides, so the difference is the tracing. Prints `listening <url>` when ready.
import { adaptRouteHandler, listen, urlOf } from "./shared";

const { startTelemetry } = await import("../../lib/server/telemetry/setup");
const started = startTelemetry("app");
const { POST } = await import("../../app/api/agent/tool-calls/route");
const server = await listen(adaptRouteHandler(POST));
console.log(`listening ${urlOf(server)} exporting=${started.exporting}`);
// The parent asks for this process's CPU time around each slice: CPU per call is what tracing adds, and unlike
// throughput it holds still when other work shares the machine.
process.on("message", (m) => {
  if (m === "cpu") process.send?.({ cpu: process.cpuUsage() });
});
process.on("SIGTERM", () => {
  server.close();
  void started.provider.shutdown().finally(() => process.exit(0));
});
