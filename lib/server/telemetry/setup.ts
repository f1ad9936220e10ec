import "server-only";
import { randomUUID } from "node:crypto";
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TracerProvider,
  type SpanExporter,
} from "@opentelemetry/sdk-trace";
import { OTLPTraceExporter as OTLPJsonTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as OTLPProtoTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { traceExportConfig } from "@/lib/server/env";
import { log } from "@/lib/server/log";

// The OpenTelemetry SDK of a process (the Next.js app through instrumentation.ts, the worker through
// scripts/worker.ts). Always registered, so trace ids are real and `traceresponse` can be answered; what it
// costs depends on the configuration (docs/observability.md):
// - no OTLP endpoint: the AlwaysOff sampler. Spans are non-recording: two random ids each, no attributes kept,
//   no processor, nothing exported.
// - OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT: ParentBased(AlwaysOn) (an agent that sends an unsampled traceparent
//   is not recorded), and a BatchSpanProcessor whose queue is bounded: when the collector is slow or down,
//   spans past MAX_QUEUE are dropped, a request never waits for the exporter.

const MAX_QUEUE = 2048;
const STARTED = Symbol.for("approvalgw.telemetry");

type Started = { provider: TracerProvider; exporting: boolean };

/** Registers the SDK once per process (idempotent); `role` names the service when OTEL_SERVICE_NAME is unset. */
export function startTelemetry(role: "app" | "worker"): Started {
  const g = globalThis as unknown as Record<symbol, Started | undefined>;
  const existing = g[STARTED];
  if (existing) return existing;
  const config = traceExportConfig();
  let exporter: SpanExporter | null = null;
  if (config) exporter = config.protocol === "http/json" ? newJsonExporter(config.url) : newProtoExporter(config.url);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      "service.name": config?.serviceName ?? (role === "app" ? "approval-gateway" : "approval-gateway-worker"),
      "service.instance.id": randomUUID(),
    }),
    sampler: exporter ? new ParentBasedSampler({ root: new AlwaysOnSampler() }) : new AlwaysOffSampler(),
    spanProcessors: exporter
      ? [
          new BatchSpanProcessor({
            exporter,
            maxQueueSize: MAX_QUEUE,
            maxExportBatchSize: 512,
            scheduledDelayMillis: 1000,
            exportTimeoutMillis: 10_000,
          }),
        ]
      : [],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  const started = { provider, exporting: exporter !== null };
  g[STARTED] = started;
  if (config) log.info({ component: "telemetry", protocol: config.protocol, role }, "exporting traces over OTLP/HTTP");
  return started;
}

function newJsonExporter(url: string): SpanExporter {
  return new OTLPJsonTraceExporter({ url });
}

function newProtoExporter(url: string): SpanExporter {
  return new OTLPProtoTraceExporter({ url });
}

/** Sends what is queued (tests, and a worker stopping). */
export async function flushTelemetry(): Promise<void> {
  const started = (globalThis as unknown as Record<symbol, Started | undefined>)[STARTED];
  await started?.provider.forceFlush();
}

/** Shuts the SDK down and unregisters it (tests that start it with another configuration). */
export async function stopTelemetry(): Promise<void> {
  const g = globalThis as unknown as Record<symbol, Started | undefined>;
  const started = g[STARTED];
  if (!started) return;
  await started.provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
  g[STARTED] = undefined;
}
