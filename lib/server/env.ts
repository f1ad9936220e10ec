import "server-only";
import { demoSecrets, productionSecretProblems, type SecretName } from "@/lib/config/demo-secrets";

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
  return process.env[name] ?? (isDemoMode ? demoSecrets[name] : "");
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
