// Next.js instrumentation hook: runs once per server process before it serves requests. The Node.js runtime
// registers the OpenTelemetry SDK (traces exported only when OTEL_EXPORTER_OTLP_ENDPOINT is set, see
// docs/observability.md) and stamps each request's TCP peer for the /api/metrics loopback rule.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startTelemetry } = await import("./lib/server/telemetry/setup");
  const { stampPeerAddress } = await import("./lib/server/telemetry/peer-address");
  startTelemetry("app");
  stampPeerAddress();
}
