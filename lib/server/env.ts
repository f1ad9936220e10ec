import "server-only";
import { loadDemoSecrets, productionSecretProblems, type SecretName } from "@/lib/config/demo-secrets";
import { demoPaymentProvider } from "@/lib/config/demo-payment-provider";

// The only reader of process.env in the application. Demo mode is chosen by the start script
// (APP_MODE=demo, set when it runs the embedded PostgreSQL); anything else is production and must
// bring its own secrets.

export const isDemoMode = process.env.APP_MODE === "demo";

let checked = false;
function assertSecrets(): void {
  if (checked || isDemoMode) return;
  // `next build` evaluates modules without runtime secrets; the running server is checked.
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const problems = productionSecretProblems(process.env);
  if (problems.length > 0) {
    throw new Error(`refusing to run in production: ${problems.join("; ")}`);
  }
  checked = true;
}

export function secret(name: SecretName): string {
  assertSecrets();
  // Demo: this install's generated secrets (.data/demo-secrets.json), never public values.
  return process.env[name] ?? (isDemoMode ? loadDemoSecrets()[name] : "");
}

export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set (npm start sets it for the embedded PostgreSQL)");
  return url;
}

export const logLevel = process.env.LOG_LEVEL ?? "info";

export type OidcConfig = { issuer: string; clientId: string; clientSecret: string; name: string };

/** Generic OpenID Connect sign-in, switched on when all three variables are set. */
export function oidcConfig(): OidcConfig | null {
  const issuer = process.env.OIDC_ISSUER;
  const clientId = process.env.OIDC_CLIENT_ID;
  const clientSecret = process.env.OIDC_CLIENT_SECRET;
  if (!issuer || !clientId || !clientSecret) return null;
  return { issuer, clientId, clientSecret, name: process.env.OIDC_NAME ?? "SSO" };
}

// Payment provider (lib/server/payments, docs/provider-sandbox.md).

export type PaymentProviderConfig = {
  apiKey: string;
  host?: string;
  port?: number;
  protocol?: "http" | "https";
  timeoutMs: number;
  webhookSecret: string | null;
};

/**
 * Where refunds go: Stripe by default, or PAYMENT_PROVIDER_URL (the sandbox provider in the demo and
 * tests). PAYMENT_PROVIDER_API_KEY, PAYMENT_PROVIDER_WEBHOOK_SECRET, PAYMENT_PROVIDER_TIMEOUT_MS
 * (default 10 s). Demo mode falls back to the sandbox's public demo values; production refuses them.
 */
export function paymentProviderConfig(): PaymentProviderConfig {
  const demo = isDemoMode;
  const apiKey = process.env.PAYMENT_PROVIDER_API_KEY ?? (demo ? demoPaymentProvider.apiKey : "");
  const webhookSecret = process.env.PAYMENT_PROVIDER_WEBHOOK_SECRET ?? (demo ? demoPaymentProvider.webhookSecret : null);
  if (!demo) {
    if (!apiKey) throw new Error("PAYMENT_PROVIDER_API_KEY is not set");
    if (apiKey === demoPaymentProvider.apiKey || webhookSecret === demoPaymentProvider.webhookSecret) {
      throw new Error("refusing the public demo payment provider credentials outside demo mode");
    }
  }
  const rawUrl = process.env.PAYMENT_PROVIDER_URL ?? (demo ? demoPaymentProvider.url : "");
  const timeout = Number.parseInt(process.env.PAYMENT_PROVIDER_TIMEOUT_MS ?? "", 10);
  const config: PaymentProviderConfig = { apiKey, timeoutMs: timeout > 0 && timeout <= 120_000 ? timeout : 10_000, webhookSecret: webhookSecret || null };
  if (rawUrl) {
    const url = new URL(rawUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("PAYMENT_PROVIDER_URL must be http(s)");
    config.protocol = url.protocol === "http:" ? "http" : "https";
    config.host = url.hostname;
    config.port = url.port ? Number(url.port) : config.protocol === "http" ? 80 : 443;
  }
  return config;
}

// Background jobs (lib/server/jobs, docs/jobs.md).

/** Jobs one worker process runs at the same time (WORKER_CONCURRENCY, default 4). */
export function workerConcurrency(): number {
  const n = Number.parseInt(process.env.WORKER_CONCURRENCY ?? "", 10);
  return Number.isInteger(n) && n > 0 && n <= 100 ? n : 4;
}

/** Reviewer webhooks may reach loopback / private addresses: always in demo mode, else WEBHOOK_ALLOW_PRIVATE=1. */
export function webhookAllowPrivate(): boolean {
  return process.env.APP_MODE === "demo" || process.env.WEBHOOK_ALLOW_PRIVATE === "1";
}

/** Public base URL of the dashboard, for links in notifications (APP_URL, else NEXTAUTH_URL). */
export function appBaseUrl(): string {
  return (process.env.APP_URL ?? process.env.NEXTAUTH_URL ?? "http://localhost:3000").replace(/\/+$/, "");
}

/**
 * The WebAuthn relying party: passkeys are bound to the dashboard's origin (NEXTAUTH_URL); the RP ID is
 * its host name. Demo mode falls back to http://localhost:3000; production must set NEXTAUTH_URL.
 */
export function webAuthnRelyingParty(): { rpID: string; origin: string; rpName: string } {
  const raw = process.env.NEXTAUTH_URL ?? (process.env.APP_MODE === "demo" ? "http://localhost:3000" : "");
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
  const int = (v: string | undefined, d: number) => {
    const n = Number.parseInt(v ?? "", 10);
    return n >= 0 && n <= 3_600_000 ? n : d;
  };
  return {
    staleSendingMs: int(process.env.EXECUTION_STALE_SENDING_MS, 30_000),
    reconcileDelayMs: int(process.env.EXECUTION_RECONCILE_DELAY_MS, 5_000),
  };
}
