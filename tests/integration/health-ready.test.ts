// Liveness and readiness (docs/operations.md "Health") against the real database and the real sandbox provider:
// each check named, and each one failing for its own reason.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as live } from "@/app/api/health/live/route";
import { GET as ready } from "@/app/api/health/ready/route";
import { GET as health } from "@/app/api/health/route";
import { APP_VERSION } from "@/lib/config/version";
import { checkReadiness } from "@/lib/server/health/check-readiness";
import { resetPaymentProvider } from "@/lib/server/payments/get-payment-provider";
import { startSandboxProvider, type SandboxProvider } from "../support/sandbox-provider";
import { findFreePort } from "../../scripts/lib/embedded-postgres";
import { asAuditOwner } from "./audit-support";
import pkg from "../../package.json";

let sandbox: SandboxProvider;
beforeAll(async () => {
  sandbox = await startSandboxProvider();
});
afterAll(async () => {
  await sandbox?.stop();
});

describe("health", () => {
  it("live: the process answers, with the version, touching nothing else", async () => {
    const res = live();
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ status: "ok", version: pkg.version, checks: { process: { status: "ok" } } });
  });

  it("/api/health keeps its shape (auditChain included) and names the version", async () => {
    const body = await (await health()).json();
    expect(body).toMatchObject({
      status: expect.any(String),
      version: APP_VERSION,
      checks: { app: "ok", database: "ok", auditChain: expect.any(String) },
    });
  });

  it("ready: database, migrations, payment provider and sequencer all named and ok", async () => {
    const res = await ready();
    const body = await res.json();
    expect(body.checks).toMatchObject({
      database: { status: "ok" },
      migrations: { status: "ok" },
      paymentProvider: { status: "ok" },
      sequencer: { status: "ok", maxLagSeconds: 60 },
    });
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ status: "ready", version: APP_VERSION });
  });

  it("not ready when the provider refuses our key or does not answer, and says which", async () => {
    const key = process.env.PAYMENT_PROVIDER_API_KEY;
    const url = process.env.PAYMENT_PROVIDER_URL;
    try {
      process.env.PAYMENT_PROVIDER_API_KEY = `sk_test_${randomUUID().replace(/-/g, "")}`;
      resetPaymentProvider();
      const refused = await checkReadiness();
      expect(refused.status).toBe("not_ready");
      expect(refused.checks.paymentProvider).toEqual({ status: "fail", detail: "the provider refused the API key" });
      expect(refused.checks.database.status).toBe("ok");

      process.env.PAYMENT_PROVIDER_API_KEY = key;
      process.env.PAYMENT_PROVIDER_URL = `http://127.0.0.1:${await findFreePort()}`;
      resetPaymentProvider();
      const down = await checkReadiness();
      expect(down.checks.paymentProvider).toMatchObject({ status: "fail" });
      expect(down.checks.paymentProvider.detail).toMatch(/^the provider did not answer \(connection\)$/);
      const res = await ready();
      expect(res.status).toBe(503);
    } finally {
      process.env.PAYMENT_PROVIDER_API_KEY = key;
      process.env.PAYMENT_PROVIDER_URL = url;
      resetPaymentProvider();
    }
    expect((await checkReadiness()).checks.paymentProvider.status).toBe("ok");
  });

  it("not ready when a migration on disk is not applied, naming it", async () => {
    const [last] = await asAuditOwner<{ name: string }>(
      `SELECT migration_name AS name FROM "_prisma_migrations" ORDER BY migration_name DESC LIMIT 1`,
    );
    await asAuditOwner(`UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE migration_name = $1`, [
      last!.name,
    ]);
    try {
      const r = await checkReadiness();
      expect(r.status).toBe("not_ready");
      expect(r.checks.migrations).toEqual({
        status: "fail",
        detail: "1 migration(s) not applied",
        pending: [last!.name],
      });
    } finally {
      await asAuditOwner(`UPDATE "_prisma_migrations" SET rolled_back_at = NULL WHERE migration_name = $1`, [
        last!.name,
      ]);
    }
    expect((await checkReadiness()).checks.migrations.status).toBe("ok");
  });

  it("not ready when the audit sequencer lags beyond the bound (HEALTH_MAX_SEQUENCER_LAG_SECONDS), ready just under it", async () => {
    // A queue row nobody integrates (no sequencer runs in this test): its age is the lag.
    const eventId = randomUUID();
    const insert = (secondsAgo: number) =>
      asAuditOwner(
        `INSERT INTO "AuditPending" ("eventId", "logId", "pos", "leafHash", "occurredAt") VALUES ($1, $2, 999999999, 'x', (now() AT TIME ZONE 'UTC') - make_interval(secs => $3))`,
        [eventId, randomUUID(), secondsAgo],
      );
    const saved = process.env.HEALTH_MAX_SEQUENCER_LAG_SECONDS;
    process.env.HEALTH_MAX_SEQUENCER_LAG_SECONDS = "120";
    try {
      await insert(110);
      const under = await checkReadiness();
      expect(under.checks.sequencer).toMatchObject({ status: "ok", maxLagSeconds: 120 });
      expect(under.checks.sequencer.lagSeconds).toBeGreaterThanOrEqual(110);
      await asAuditOwner(
        `UPDATE "AuditPending" SET "occurredAt" = "occurredAt" - interval '20 seconds' WHERE "eventId" = $1`,
        [eventId],
      );
      const over = await checkReadiness();
      expect(over.status).toBe("not_ready");
      expect(over.checks.sequencer).toMatchObject({ status: "fail", maxLagSeconds: 120 });
      expect(over.checks.sequencer.detail).toMatch(/^the audit sequencer is 13\d s behind \(bound 120 s\)$/);
    } finally {
      process.env.HEALTH_MAX_SEQUENCER_LAG_SECONDS = saved;
      await asAuditOwner(`DELETE FROM "AuditPending" WHERE "eventId" = $1`, [eventId]);
    }
  });
});
