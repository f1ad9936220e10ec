import "server-only";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { APP_VERSION } from "@/lib/config/version";
import { sqlPool } from "@/lib/server/db/pg";
import { sql, nowUtc } from "@/lib/server/db/sql";
import { healthMaxSequencerLagSeconds, paymentProviderConfig } from "@/lib/server/env";
import { log } from "@/lib/server/log";
import { getPaymentProvider } from "@/lib/server/payments/get-payment-provider";

export type CheckResult = { status: "ok" | "fail" | "skipped"; detail?: string } & Record<string, unknown>;
export type Readiness = {
  status: "ready" | "not_ready";
  version: string;
  checks: { database: CheckResult; migrations: CheckResult; paymentProvider: CheckResult; sequencer: CheckResult };
  time: string;
};

/** Each check gets this long; a check that hangs (a provider that never answers) fails instead of holding the probe. */
const CHECK_TIMEOUT_MS = 3_000;
/** The provider is asked at most this often; probes in between reuse the last answer (a load balancer probes every few seconds). */
const PROVIDER_CHECK_EVERY_MS = 15_000;
let lastProviderCheck: { at: number; config: string; result: CheckResult } | null = null;

function within<T extends CheckResult>(what: string, check: () => Promise<T>): Promise<CheckResult> {
  return Promise.race([
    check().catch((error: unknown): CheckResult => {
      log.warn({ check: what, err: error instanceof Error ? error.message : String(error) }, "readiness check failed");
      return { status: "fail", detail: `${what} check failed` };
    }),
    new Promise<CheckResult>((resolve) =>
      setTimeout(
        () => resolve({ status: "fail", detail: `no answer within ${CHECK_TIMEOUT_MS} ms` }),
        CHECK_TIMEOUT_MS,
      ).unref(),
    ),
  ]);
}

/** Migrations in prisma/migrations that the database has not applied (or whose apply did not finish). */
async function checkMigrations(): Promise<CheckResult> {
  const onDisk = readdirSync(join(process.cwd(), "prisma", "migrations"), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const rows = (
    await sql<{
      name: string;
    }>`SELECT "migration_name" AS name FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL AND "rolled_back_at" IS NULL`.execute(
      sqlPool(),
    )
  ).rows;
  const applied = new Set(rows.map((r) => r.name));
  const pending = onDisk.filter((name) => !applied.has(name)).sort();
  return pending.length
    ? { status: "fail", detail: `${pending.length} migration(s) not applied`, pending }
    : { status: "ok", applied: onDisk.length };
}

/**
 * The payment provider answers an authenticated read. Asked for a refund id that cannot exist: "not found" means
 * the provider is reachable and accepts our key; a timeout, a refused connection or an authentication error fail.
 * Skipped while no active tenant exists (nothing can be refunded yet).
 */
async function checkPaymentProvider(): Promise<CheckResult> {
  const [row] = (
    await sql<{ tenants: number }>`SELECT count(*)::int AS tenants FROM "Tenant" WHERE "active"`.execute(sqlPool())
  ).rows;
  const tenants = row?.tenants ?? 0;
  if (tenants === 0) return { status: "skipped", detail: "no active tenant" };
  let config = "";
  let result: CheckResult;
  try {
    // The answer is reused only for the same configuration (a changed key is asked about at once).
    config = JSON.stringify(paymentProviderConfig());
    if (lastProviderCheck?.config === config && Date.now() - lastProviderCheck.at < PROVIDER_CHECK_EVERY_MS)
      return lastProviderCheck.result;
    const answer = await getPaymentProvider().retrieveRefund("re_readiness_probe");
    result =
      answer.outcome === "unknown"
        ? {
            status: "fail",
            detail:
              answer.cause === "authentication"
                ? "the provider refused the API key"
                : `the provider did not answer (${answer.cause})`,
          }
        : { status: "ok", tenants };
  } catch (error) {
    // Not configured (no PAYMENT_PROVIDER_API_KEY outside the demo): say so, without the value.
    result = { status: "fail", detail: error instanceof Error ? error.message : "not configured" };
  }
  lastProviderCheck = { at: Date.now(), config, result };
  return result;
}

/** How long the oldest audit event has waited for the sequencer (docs/audit.md); over the bound = not ready. */
async function checkSequencer(): Promise<CheckResult> {
  const [row] = (
    await sql<{
      lag: number | null;
      pending: number;
    }>`SELECT EXTRACT(EPOCH FROM ${nowUtc} - min("occurredAt"))::float8 AS lag, count(*)::int AS pending FROM "AuditPending"`.execute(
      sqlPool(),
    )
  ).rows;
  const lagSeconds = Math.max(0, Math.round(row?.lag ?? 0));
  const maxLagSeconds = healthMaxSequencerLagSeconds();
  return lagSeconds > maxLagSeconds
    ? {
        status: "fail",
        detail: `the audit sequencer is ${lagSeconds} s behind (bound ${maxLagSeconds} s)`,
        lagSeconds,
        maxLagSeconds,
        pending: row?.pending ?? 0,
      }
    : { status: "ok", lagSeconds, maxLagSeconds, pending: row?.pending ?? 0 };
}

/**
 * Readiness (GET /api/health/ready, docs/operations.md "Health"): may this instance take traffic? The database
 * answers, every migration on disk is applied, the payment provider answers for the configured tenants, and the
 * audit sequencer is within its bound. Each check is named with its result; any "fail" makes the whole not ready.
 */
export async function checkReadiness(): Promise<Readiness> {
  const database = await within("database", async (): Promise<CheckResult> => {
    await sql`SELECT 1`.execute(sqlPool());
    return { status: "ok" };
  });
  const skipped: CheckResult = { status: "skipped", detail: "database unreachable" };
  const [migrations, paymentProvider, sequencer] =
    database.status === "ok"
      ? await Promise.all([
          within("migrations", checkMigrations),
          within("paymentProvider", checkPaymentProvider),
          within("sequencer", checkSequencer),
        ])
      : [skipped, skipped, skipped];
  const checks = { database, migrations, paymentProvider, sequencer };
  const ready = Object.values(checks).every((c) => c.status !== "fail") && database.status === "ok";
  return { status: ready ? "ready" : "not_ready", version: APP_VERSION, checks, time: new Date().toISOString() };
}
