import "server-only";
import type { StripeProviderConfig } from "@/lib/server/payments/stripe-provider";
import { z } from "zod";
import { loadDemoSecrets, productionSecretProblems, type SecretName } from "@/lib/config/demo-secrets";
import { demoPaymentProvider } from "@/lib/config/demo-payment-provider";

// The only reader of process.env in the application: every variable is declared once in `envSchema`
// below, parsed with it, and read through `env()` (or the helpers under it). An invalid value is never
// replaced by a default: the first read fails with every problem listed, so a misconfigured process stops
// at start instead of running on silent fallbacks. Demo mode is chosen by the start script (APP_MODE=demo,
// set when it runs the embedded PostgreSQL); anything else is production and must bring its own secrets.

/** Unset and "" are the same: .env files write `NAME=` for "not set". */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === "" ? undefined : v), schema.optional());
const int = (min: number, max: number, fallback: number) =>
  z.preprocess(
    (v) => (v === "" || v === undefined ? undefined : typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v.trim()) : v),
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
  LOG_LEVEL: optional(z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])).transform((v) => v ?? "info"),
  NEXTAUTH_SECRET: optional(z.string()),
  AUDIT_HMAC_KEY: optional(z.string()),
  AUDIT_SIGNING_KEY: optional(z.string()),
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
  EXECUTION_STALE_SENDING_MS: int(0, 3_600_000, 30_000),
  EXECUTION_RECONCILE_DELAY_MS: int(0, 3_600_000, 5_000),
  WEBHOOK_ALLOW_PRIVATE: optional(z.enum(["0", "1"])).transform((v) => v === "1"),
  /** E-mail notifications (lib/server/notifications/mailer.ts): smtp:// or smtps:// URL; unset = e-mail off. */
  SMTP_URL: optional(z.url({ protocol: /^smtps?$/, error: "an smtp:// or smtps:// URL" })),
  /** The From of notification e-mails ("Approvals <approvals@example.com>"); required with SMTP_URL outside the demo. */
  MAIL_FROM: optional(z.string().min(3).max(200)),
  /** Reviewers get the "about to expire" reminder this many minutes before a pending proposal expires. */
  NOTIFY_EXPIRING_WITHIN_MINUTES: int(1, 1440, 10),
  /** Read by proxy.ts (which runs outside the data layer); declared here so a bad value is reported. */
  TRUST_PROXY: optional(z.enum(["0", "1"])).transform((v) => v === "1"),
});

/** Rules across variables, checked beside the schema so they are listed even when a field is also wrong. */
function crossProblems(source: Record<string, string | undefined>): string[] {
  const oidc = [source.OIDC_ISSUER, source.OIDC_CLIENT_ID, source.OIDC_CLIENT_SECRET].filter((v) => v !== undefined && v !== "").length;
  const problems = oidc !== 0 && oidc !== 3 ? ["OIDC_ISSUER: OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together"] : [];
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
  return [...(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".") || "(env)"}: ${i.message}`)), ...crossProblems(source)];
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
  if (!parsed.success || problems.length > 0) throw new Error(`invalid environment (see .env.example):\n${problems.map((p) => `  - ${p}`).join("\n")}`);
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
  const problems = productionSecretProblems({ NEXTAUTH_SECRET: e.NEXTAUTH_SECRET, AUDIT_HMAC_KEY: e.AUDIT_HMAC_KEY, AUDIT_SIGNING_KEY: e.AUDIT_SIGNING_KEY });
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

export function databaseUrl(): string {
  const url = env().DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set (npm start sets it for the embedded PostgreSQL)");
  return url;
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

export type PaymentProviderConfig = Pick<StripeProviderConfig, "apiKey" | "host" | "port" | "protocol" | "timeoutMs" | "webhookSecret">;

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
  const config: PaymentProviderConfig = { apiKey, timeoutMs: e.PAYMENT_PROVIDER_TIMEOUT_MS, webhookSecret: webhookSecret || null };
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

/** Reviewer webhooks may reach loopback / private addresses: always in demo mode, else WEBHOOK_ALLOW_PRIVATE=1. */
export function webhookAllowPrivate(): boolean {
  const e = env();
  return e.APP_MODE === "demo" || e.WEBHOOK_ALLOW_PRIVATE;
}

/** Public base URL of the dashboard, for links in notifications (APP_URL, else NEXTAUTH_URL). */
export function appBaseUrl(): string {
  const e = env();
  return (e.APP_URL ?? e.NEXTAUTH_URL ?? "http://localhost:3000").replace(/\/+$/, "");
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
