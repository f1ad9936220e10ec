// A real OTLP/HTTP receiver on loopback for the tracing tests: accepts POST /v1/traces in the JSON protocol
// (OTEL_EXPORTER_OTLP_PROTOCOL=http/json) and keeps every span it decoded, plus the raw bodies (the canary
// scan reads those: whatever the exporter sent, not only the fields decoded here).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  attributes?: { key: string; value: AnyValue }[];
  links?: { traceId: string; spanId: string }[];
  status?: { code?: number };
};

export type ReceivedSpan = {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  attributes: Record<string, string | number | boolean>;
  links: { traceId: string; spanId: string }[];
  error: boolean;
};

const valueOf = (v: AnyValue): string | number | boolean =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.doubleValue ?? v.boolValue ?? "";

export type OtlpReceiver = {
  url: string;
  spans: ReceivedSpan[];
  bodies: string[];
  requests: { contentType: string }[];
  close: () => Promise<void>;
};

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const requests: { contentType: string }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push({ contentType: String(req.headers["content-type"] ?? "") });
      if (req.method !== "POST" || req.url !== "/v1/traces") {
        res.writeHead(404).end();
        return;
      }
      bodies.push(body);
      const parsed = JSON.parse(body) as {
        resourceSpans?: {
          resource?: { attributes?: { key: string; value: AnyValue }[] };
          scopeSpans?: { spans?: OtlpSpan[] }[];
        }[];
      };
      for (const rs of parsed.resourceSpans ?? []) {
        const service = String(valueOf(rs.resource?.attributes?.find((a) => a.key === "service.name")?.value ?? {}));
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? [])
            spans.push({
              service,
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId || null,
              name: s.name,
              attributes: Object.fromEntries((s.attributes ?? []).map((a) => [a.key, valueOf(a.value)])),
              links: (s.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
              error: s.status?.code === 2,
            });
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    bodies,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
