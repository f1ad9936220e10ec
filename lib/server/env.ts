import "server-only";
import type { StripeProviderConfig } from "@/lib/server/payments/stripe-provider";
import { join } from "node:path";
import { z } from "zod";
import { loadDemoSecrets, productionSecretProblems, type SecretName } from "@/lib/config/demo-secrets";
import { demoPaymentProvider } from "@/lib/config/demo-payment-provider";
import { parseSecretsKey, type SecretsKey } from "@/lib/domain/secret-box";

// The only reader of process.env in the application: every variable is declared once in `envSchema`
// below, parsed with it, and read through `env()` (or the helpers under it). An invalid value is never
// replaced by a default: the first read fails with every problem listed, so a misconfigured process stops
// at start instead of running on silent fallbacks. Demo mode is chosen by the start script (APP_MODE=demo,
// set when it runs the embedded PostgreSQL); anything else is production and must bring its own secrets.

/** Unset and "" are the same: .env files write `NAME=` for "not set". */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === "" ? undefined : v), schema.optional());
const int = (min: number, max: number, fallback: number) =>
  z.preprocess(
    (v) =>
      v === "" || v === undefined ? undefined : typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v.trim()) : v,
    z
      .number({ error: `a whole number from ${min} to ${max}` })
      .int()
      .min(min)
      .max(max)
      .default(fallback),
  );
const httpUrl = z.url({ protocol: /^https?$/, error: "an http(s) URL" });

export const envSchema = z.object({
  APP_MODE: optional(z.enum(["demo", "production"])),
  /** Set by `next build` while it evaluates modules (no runtime secrets then). */
  NEXT_PHASE: optional(z.string()),
  DATABASE_URL: optional(z.url({ protocol: /^postgres(ql)?$/, error: "a postgres:// or postgresql:// URL" })),
  DATABASE_POOL_SIZE: int(1, 200, 10),
  LOG_LEVEL: optional(z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])).transform(
    (v) => v ?? "info",
  ),
  NEXTAUTH_SECRET: optional(z.string()),
  AUDIT_HMAC_KEY: optional(z.string()),
  AUDIT_SIGNING_KEY: optional(z.string()),
  /** Key rotation (docs/audit.md "Rotating the signing key"): the next key's seed, published before it signs. */
  AUDIT_SIGNING_KEY_NEXT: optional(z.string()),
  /** From this instant the next key co-signs every C2SP checkpoint (the overlap); before it, it is only published. */
  AUDIT_SIGNING_KEY_NEXT_FROM: optional(z.iso.datetime({ offset: true })),
  /** Retired keys: JSON [{"publicKey": base64, "validFrom": ISO, "validUntil": ISO}], kept to verify what they signed. */
  AUDIT_SIGNING_KEYS_RETIRED: optional(z.string()),
  /** The NEXTAUTH_SECRET before a rotation: sessions it signed stay valid until it is removed (docs/operations.md). */
  NEXTAUTH_SECRET_PREVIOUS: optional(z.string()),
  /** The AUDIT_HMAC_KEY before a rotation: searches also match fingerprints it made; new events use the new key. */
  AUDIT_HMAC_KEY_PREVIOUS: optional(z.string()),
  /** Encrypts tenants' provider credentials at rest (AES-256-GCM; 32 bytes, hex or base64). Optional: docs/operations.md "Rotating SECRETS_KEY". */
  SECRETS_KEY: optional(z.string()),
  /** The SECRETS_KEY before a rotation: still opens what it sealed until `npm run secrets:rotate` re-seals every row. */
  SECRETS_KEY_PREVIOUS: optional(z.string()),
  /** A production start serves a database holding demo tenants only with ALLOW_DEMO_TENANTS=1 (a staging copy). */
  ALLOW_DEMO_TENANTS: optional(z.enum(["0", "1"])).transform((v) => v === "1"),
  /** Readiness (/api/health/ready) fails when the audit sequencer is further behind than this. */
  HEALTH_MAX_SEQUENCER_LAG_SECONDS: int(1, 86_400, 60),
  NEXTAUTH_URL: optional(httpUrl),
  APP_URL: optional(httpUrl),
  OIDC_ISSUER: optional(httpUrl),
  OIDC_CLIENT_ID: optional(z.string()),
  OIDC_CLIENT_SECRET: optional(z.string()),
  OIDC_NAME: optional(z.string().max(64)).transform((v) => v ?? "SSO"),
  PAYMENT_PROVIDER_API_KEY: optional(z.string()),
  PAYMENT_PROVIDER_WEBHOOK_SECRET: optional(z.string()),
  PAYMENT_PROVIDER_URL: optional(httpUrl),
  PAYMENT_PROVIDER_TIMEOUT_MS: int(1, 120_000, 10_000),
  /** "0" = derive refundable amounts from the ledger only, never asking the provider (tests without a provider). Default: ask it. */
  PAYMENT_PROVIDER_LIVE_READS: optional(z.enum(["0", "1"])).transform((v) => v !== "0"),
  WORKER_CONCURRENCY: int(1, 100, 4),
  AUDIT_SEQUENCER_INTERVAL_MS: int(10, 60_000, 100),
  /** Where the signer keeps the last checkpoint it signed per log (lib/server/audit/signer-state.ts); default .data/audit-signer. */
  AUDIT_SIGNER_STATE_DIR: optional(z.string().min(1)),
  EXECUTION_STALE_SENDING_MS: int(0, 3_600_000, 30_000),
  EXECUTION_RECONCILE_DELAY_MS: int(0, 3_600_000, 5_000),
  WEBHOOK_ALLOW_PRIVATE: optional(z.enum(["0", "1"])).transform((v) => v === "1"),
  /** E-mail notifications (lib/server/notifications/mailer.ts): smtp:// or smtps:// URL; unset = e-mail off. */
  SMTP_URL: optional(z.url({ protocol: /^smtps?$/, error: "an smtp:// or smtps:// URL" })),
  /** The From of notification e-mails ("Approvals <approvals@example.com>"); required with SMTP_URL outside the demo. */
  MAIL_FROM: optional(z.string().min(3).max(200)),
  /** Reviewers get the "about to expire" reminder this many minutes before a pending proposal expires. */
  NOTIFY_EXPIRING_WITHIN_MINUTES: int(1, 1440, 10),
  /** Concurrent waiting calls (get_refund_status with wait_seconds) one app instance holds; past it a call answers at once. */
  REALTIME_MAX_WAITERS: int(1, 100_000, 1_000),
  /** Read by proxy.ts (which runs outside the data layer); declared here so a bad value is reported. */
  TRUST_PROXY: optional(z.enum(["0", "1"])).transform((v) => v === "1"),
  /** Traces (lib/server/telemetry, docs/observability.md): exported over OTLP/HTTP only when an endpoint is set. */
  OTEL_EXPORTER_OTLP_ENDPOINT: optional(httpUrl),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optional(httpUrl),
  OTEL_EXPORTER_OTLP_PROTOCOL: optional(
    z.enum(["http/protobuf", "http/json"], { error: "http/protobuf or http/json (gRPC is not supported)" }),
  ),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: optional(
    z.enum(["http/protobuf", "http/json"], { error: "http/protobuf or http/json (gRPC is not supported)" }),
  ),
  OTEL_SERVICE_NAME: optional(z.string().max(100)),
  /** GET /api/metrics needs `Authorization: Bearer <METRICS_TOKEN>`; unset = loopback scrapers only. */
  METRICS_TOKEN: optional(z.string().min(16, { error: "at least 16 characters" })),
  /** A worker serves its own counters at GET /metrics on this port (unset: no listener), on WORKER_METRICS_HOST. */
  WORKER_METRICS_PORT: optional(z.coerce.number({ error: "a port number" }).int().min(1).max(65535)),
  /** The app's HTTP port (npm start); the origin of links when neither APP_URL nor NEXTAUTH_URL is set. */
  PORT: optional(z.coerce.number({ error: "a port number" }).int().min(1).max(65535)),
  WORKER_METRICS_HOST: optional(z.string().min(1).max(255)).transform((v) => v ?? "127.0.0.1"),
});

/** Rules across variables, checked beside the schema so they are listed even when a field is also wrong. */
function crossProblems(source: Record<string, string | undefined>): string[] {
  const oidc = [source.OIDC_ISSUER, source.OIDC_CLIENT_ID, source.OIDC_CLIENT_SECRET].filter(
    (v) => v !== undefined && v !== "",
  ).length;
  const problems =
    oidc !== 0 && oidc !== 3
      ? ["OIDC_ISSUER: OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together"]
      : [];
  // Production as scripts/start.ts decides it (it reads this before it sets APP_MODE): a DATABASE_URL, not demo.
  const production = source.APP_MODE === "production" || (source.APP_MODE !== "demo" && !!source.DATABASE_URL);
  if (source.SMTP_URL && !source.MAIL_FROM && production) {
    problems.push("MAIL_FROM: required when SMTP_URL is set (the From of notification e-mails)");
  }
  return problems;
}

export type Env = z.output<typeof envSchema>;

const keys = Object.keys(envSchema.shape) as (keyof Env)[];
let cached: { snapshot: string; env: Env } | null = null;

/** Every problem of an environment, one line each ("NAME: expected …"); empty when it parses. */
export function envProblems(source: Record<string, string | undefined>): string[] {
  const parsed = envSchema.safeParse(source);
  return [
    ...(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".") || "(env)"}: ${i.message}`)),
    ...crossProblems(source),
  ];
}

/**
 * The parsed environment. Parsed once per distinct set of values (tests and scripts may change a variable
 * at run time; the server never does), and throws listing every invalid variable.
 */
export function env(): Env {
  const source = Object.fromEntries(keys.map((k) => [k, process.env[k]]));
  const snapshot = JSON.stringify(source);
  if (cached?.snapshot === snapshot) return cached.env;
  const parsed = envSchema.safeParse(source);
  const problems = envProblems(source);
  if (!parsed.success || problems.length > 0)
    throw new Error(`invalid environment (see .env.example):\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  cached = { snapshot, env: parsed.data };
  return parsed.data;
}

export const isDemoMode = env().APP_MODE === "demo";

let checked = false;
function assertSecrets(): void {
  if (checked || isDemoMode) return;
  // `next build` evaluates modules without runtime secrets; the running server is checked.
  if (env().NEXT_PHASE === "phase-production-build") return;
  const e = env();
  const problems = productionSecretProblems({
    NEXTAUTH_SECRET: e.NEXTAUTH_SECRET,
    AUDIT_HMAC_KEY: e.AUDIT_HMAC_KEY,
    AUDIT_SIGNING_KEY: e.AUDIT_SIGNING_KEY,
    NEXTAUTH_SECRET_PREVIOUS: e.NEXTAUTH_SECRET_PREVIOUS,
    AUDIT_HMAC_KEY_PREVIOUS: e.AUDIT_HMAC_KEY_PREVIOUS,
    SECRETS_KEY: e.SECRETS_KEY,
    SECRETS_KEY_PREVIOUS: e.SECRETS_KEY_PREVIOUS,
  });
  if (problems.length > 0) {
    throw new Error(`refusing to run in production: ${problems.join("; ")}`);
  }
  checked = true;
}

export function secret(name: SecretName): string {
  assertSecrets();
  // Demo: this install's generated secrets (.data/demo-secrets.json), never public values.
  return env()[name] ?? (isDemoMode ? loadDemoSecrets()[name] : "");
}

/** The value a secret had before its rotation, during the overlap; null when none is set. */
export function previousSecret(name: "NEXTAUTH_SECRET" | "AUDIT_HMAC_KEY"): string | null {
  assertSecrets();
  return env()[`${name}_PREVIOUS`] ?? null;
}

/**
 * The keys that seal tenants' provider credentials (lib/domain/secret-box.ts): `current` seals, both open.
 * Demo: this install's generated key. Production: SECRETS_KEY (checked at start like the other secrets),
 * or none — then no provider connection can be stored or opened.
 */
export function secretsKeys(): { current: SecretsKey | null; previous: SecretsKey | null } {
  assertSecrets();
  const e = env();
  const current = e.SECRETS_KEY ?? (isDemoMode ? loadDemoSecrets().SECRETS_KEY : undefined);
  return {
    current: current ? parseSecretsKey(current) : null,
    previous: e.SECRETS_KEY_PREVIOUS ? parseSecretsKey(e.SECRETS_KEY_PREVIOUS) : null,
  };
}

/** ALLOW_DEMO_TENANTS=1: a production process serves a database that holds demo tenants (a staging copy). */
export function allowDemoTenants(): boolean {
  return env().ALLOW_DEMO_TENANTS;
}

/** Readiness bound on the audit sequencer's lag (HEALTH_MAX_SEQUENCER_LAG_SECONDS, default 60). */
export function healthMaxSequencerLagSeconds(): number {
  return env().HEALTH_MAX_SEQUENCER_LAG_SECONDS;
}

export function databaseUrl(): string {
  const url = env().DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set (npm start sets it for the embedded PostgreSQL)");
  return url;
}

/** Concurrent proposal waits per instance (lib/server/realtime/proposal-changes.ts). */
export function realtimeMaxWaiters(): number {
  return env().REALTIME_MAX_WAITERS;
}

/** Connections per app instance (DATABASE_POOL_SIZE, default 10). */
export function databasePoolSize(): number {
  return env().DATABASE_POOL_SIZE;
}

export const logLevel = env().LOG_LEVEL;

export type OidcConfig = { issuer: string; clientId: string; clientSecret: string; name: string };

/** Generic OpenID Connect sign-in, switched on when all three variables are set. */
export function oidcConfig(): OidcConfig | null {
  const { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret, OIDC_NAME: name } = env();
  if (!issuer || !clientId || !clientSecret) return null;
  return { issuer, clientId, clientSecret, name };
}

// Payment provider (lib/server/payments, docs/provider-sandbox.md).

export type PaymentProviderConfig = Pick<
  StripeProviderConfig,
  "apiKey" | "host" | "port" | "protocol" | "timeoutMs" | "webhookSecret"
>;

/**
 * Where refunds go: Stripe by default, or PAYMENT_PROVIDER_URL (the sandbox provider in the demo and
 * tests). PAYMENT_PROVIDER_API_KEY, PAYMENT_PROVIDER_WEBHOOK_SECRET, PAYMENT_PROVIDER_TIMEOUT_MS
 * (default 10 s). Demo mode falls back to the sandbox's public demo values; production refuses them.
 */
export function paymentProviderConfig(): PaymentProviderConfig {
  const e = env();
  const demo = isDemoMode;
  const apiKey = e.PAYMENT_PROVIDER_API_KEY ?? (demo ? demoPaymentProvider.apiKey : "");
  const webhookSecret = e.PAYMENT_PROVIDER_WEBHOOK_SECRET ?? (demo ? demoPaymentProvider.webhookSecret : null);
  if (!demo) {
    if (!apiKey) throw new Error("PAYMENT_PROVIDER_API_KEY is not set");
    if (apiKey === demoPaymentProvider.apiKey || webhookSecret === demoPaymentProvider.webhookSecret) {
      throw new Error("refusing the public demo payment provider credentials outside demo mode");
    }
  }
  const rawUrl = e.PAYMENT_PROVIDER_URL ?? (demo ? demoPaymentProvider.url : "");
  const config: PaymentProviderConfig = {
    apiKey,
    timeoutMs: e.PAYMENT_PROVIDER_TIMEOUT_MS,
    webhookSecret: webhookSecret || null,
  };
  if (rawUrl) {
    const url = new URL(rawUrl);
    config.protocol = url.protocol === "http:" ? "http" : "https";
    config.host = url.hostname;
    config.port = url.port ? Number(url.port) : config.protocol === "http" ? 80 : 443;
  }
  return config;
}

/** Whether a payment at the provider is read live at prepare, lookup and execution (docs/systems-of-record.md). */
export function paymentLiveReads(): boolean {
  return env().PAYMENT_PROVIDER_LIVE_READS;
}

// Background jobs (lib/server/jobs, docs/jobs.md).

/** Jobs one worker process runs at the same time (WORKER_CONCURRENCY, default 4). */
export function workerConcurrency(): number {
  return env().WORKER_CONCURRENCY;
}

/** How often the audit sequencer looks for new events to integrate (AUDIT_SEQUENCER_INTERVAL_MS, default 100). */
export function auditSequencerIntervalMs(): number {
  return env().AUDIT_SEQUENCER_INTERVAL_MS;
}

export type RetiredAuditKey = { publicKey: string; validFrom: string; validUntil: string };
const retiredKeys = z.array(
  z.object({
    publicKey: z.string().min(1),
    validFrom: z.iso.datetime({ offset: true }),
    validUntil: z.iso.datetime({ offset: true }),
  }),
);

/** The audit signing key's rotation settings (the current key itself is secret("AUDIT_SIGNING_KEY")). */
export function auditKeyRotation(): { next: string | null; nextFrom: string | null; retired: RetiredAuditKey[] } {
  const e = env();
  let retired: RetiredAuditKey[] = [];
  if (e.AUDIT_SIGNING_KEYS_RETIRED) {
    const parsed = retiredKeys.safeParse(JSON.parse(e.AUDIT_SIGNING_KEYS_RETIRED));
    if (!parsed.success)
      throw new Error("AUDIT_SIGNING_KEYS_RETIRED must be a JSON list of {publicKey, validFrom, validUntil}");
    retired = parsed.data;
  }
  return { next: e.AUDIT_SIGNING_KEY_NEXT ?? null, nextFrom: e.AUDIT_SIGNING_KEY_NEXT_FROM ?? null, retired };
}

/** The signer's own store of what it signed (beside its key, outside the database). */
export function auditSignerStateDir(): string {
  return env().AUDIT_SIGNER_STATE_DIR ?? join(process.cwd(), ".data", "audit-signer");
}

/** Reviewer webhooks may reach loopback / private addresses: always in demo mode, else WEBHOOK_ALLOW_PRIVATE=1. */
export function webhookAllowPrivate(): boolean {
  const e = env();
  return e.APP_MODE === "demo" || e.WEBHOOK_ALLOW_PRIVATE;
}

/**
 * Public base URL of the dashboard, for links in notifications and setup links (APP_URL, else NEXTAUTH_URL,
 * else the local app on PORT — what `npm start` itself falls back to — or 3000).
 */
export function appBaseUrl(): string {
  const e = env();
  return (e.APP_URL ?? e.NEXTAUTH_URL ?? `http://localhost:${e.PORT ?? 3000}`).replace(/\/+$/, "");
}

/**
 * The WebAuthn relying party: passkeys are bound to the dashboard's origin (NEXTAUTH_URL); the RP ID is
 * its host name. Demo mode falls back to http://localhost:3000; production must set NEXTAUTH_URL.
 */
export function webAuthnRelyingParty(): { rpID: string; origin: string; rpName: string } {
  const e = env();
  const raw = e.NEXTAUTH_URL ?? (e.APP_MODE === "demo" ? "http://localhost:3000" : "");
  if (!raw) throw new Error("NEXTAUTH_URL is not set: passkeys need the dashboard's public origin");
  const url = new URL(raw);
  return { rpID: url.hostname, origin: url.origin, rpName: "Approval Gateway" };
}

/**
 * Execution timings. `staleSendingMs`: a `sending` execution older than this is presumed to belong to
 * a crashed worker and is reconciled; `reconcileDelayMs`: first check after an unknown outcome.
 * Tests shorten them; production keeps the defaults.
 */
export function executionTimings(): { staleSendingMs: number; reconcileDelayMs: number } {
  const e = env();
  return { staleSendingMs: e.EXECUTION_STALE_SENDING_MS, reconcileDelayMs: e.EXECUTION_RECONCILE_DELAY_MS };
}

// Notifications (lib/server/notifications, docs/notifications.md).

export type MailConfig = { smtpUrl: string; from: string };

export const DEMO_MAIL_FROM = "Approval Gateway (demo) <approvals@localhost>";

/** SMTP for notification e-mails, or null when SMTP_URL is unset (e-mail off; the demo too unless it is set). */
export function mailConfig(): MailConfig | null {
  const e = env();
  const from = e.MAIL_FROM ?? (e.APP_MODE === "demo" ? DEMO_MAIL_FROM : undefined);
  if (!e.SMTP_URL || !from) return null;
  return { smtpUrl: e.SMTP_URL, from };
}

/** Minutes before expiry when reviewers are reminded of a pending proposal (NOTIFY_EXPIRING_WITHIN_MINUTES, default 10). */
export function notifyExpiringWithinMinutes(): number {
  return env().NOTIFY_EXPIRING_WITHIN_MINUTES;
}

// Observability (lib/server/telemetry, docs/observability.md).

export type TraceExportConfig = {
  url: string;
  protocol: "http/protobuf" | "http/json";
  serviceName: string | null;
} | null;

/**
 * Where spans go: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (the full URL) or OTEL_EXPORTER_OTLP_ENDPOINT (+ /v1/traces),
 * protobuf unless OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL says http/json. Null: nothing is exported.
 */
export function traceExportConfig(): TraceExportConfig {
  const e = env();
  const url =
    e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    (e.OTEL_EXPORTER_OTLP_ENDPOINT ? `${e.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, "")}/v1/traces` : null);
  if (!url) return null;
  return {
    url,
    protocol: e.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? e.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf",
    serviceName: e.OTEL_SERVICE_NAME ?? null,
  };
}

/** The scrape token of GET /api/metrics (METRICS_TOKEN), or null: loopback only. */
export function metricsToken(): string | null {
  return env().METRICS_TOKEN ?? null;
}

/** X-Forwarded-For is believed only behind a proxy that sets it (TRUST_PROXY=1). */
export function trustProxy(): boolean {
  return env().TRUST_PROXY;
}

/** Where a worker serves its metrics (WORKER_METRICS_PORT on WORKER_METRICS_HOST, default loopback), or null. */
export function workerMetricsListen(): { port: number; host: string } | null {
  const e = env();
  return e.WORKER_METRICS_PORT ? { port: e.WORKER_METRICS_PORT, host: e.WORKER_METRICS_HOST } : null;
}
