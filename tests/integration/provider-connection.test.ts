// Per-tenant payment provider connections (docs/systems-of-record.md "Per-tenant connection", docs/operations.md
// "Keys and rotation"), through the real sandbox provider process: an admin stores the tenant's own key and
// webhook secret (sealed with AES-256-GCM under SECRETS_KEY, step-up first, audited without the key); "Test
// connection" asks the provider with that key; the tenant's live reads use its own key while another tenant keeps
// the process-wide default; a rotation re-seals every row (old key removed afterwards, still opens); a wrong key
// or a row copied to another tenant fails closed with a clear error, never the default credentials.
import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getProviderConnection } from "@/lib/server/admin/provider-connection/get-provider-connection";
import { removeProviderConnection } from "@/lib/server/admin/provider-connection/remove-provider-connection";
import { setProviderConnection } from "@/lib/server/admin/provider-connection/set-provider-connection";
import { testProviderConnection } from "@/lib/server/admin/provider-connection/test-provider-connection";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import {
  paymentProviderFor,
  ProviderConnectionUnusable,
  resetPaymentProvider,
} from "@/lib/server/payments/get-payment-provider";
import { refundableLeftLive } from "@/lib/server/proposals/refundable-left";
import { resealProviderConnections } from "@/lib/server/secrets/reseal-provider-connections";
import { actorFor, staffOf } from "../support/actors";
import { refusal } from "../support/refusal";
import { startSandboxProvider, type SandboxProvider } from "../support/sandbox-provider";

const ES = "tienda-es";
const US = "shop-us";
const newKey = () => randomBytes(32).toString("base64");
const TENANT_KEY = `rk_test_${randomUUID().replace(/-/g, "")}`;
const TENANT_SECRET = `whsec_${randomBytes(24).toString("base64url")}`;
const K1 = newKey();

let sandbox: SandboxProvider;
let A: Actor; // tienda-es admin
let U: Actor; // shop-us admin
let R: Actor; // tienda-es reviewer

beforeAll(async () => {
  // The sandbox accepts the process-wide key and the tenant's own key (as Stripe would for two accounts' keys).
  sandbox = await startSandboxProvider({ extraArgs: ["--api-key", TENANT_KEY] });
  process.env.PAYMENT_PROVIDER_LIVE_READS = "1";
  process.env.SECRETS_KEY = K1;
  delete process.env.SECRETS_KEY_PREVIOUS;
  A = await actorFor(staffOf(ES, "admin").email);
  U = await actorFor(staffOf(US, "admin").email);
  R = await actorFor(staffOf(ES, "reviewer").email);
});
afterAll(async () => {
  process.env.PAYMENT_PROVIDER_LIVE_READS = "0";
  delete process.env.SECRETS_KEY;
  delete process.env.SECRETS_KEY_PREVIOUS;
  await sandbox?.stop();
});

const rowOf = (tenantId: string) => db().providerConnection.findUniqueOrThrow({ where: { tenantId } });

/** A payment intent captured at the sandbox and what the live read says is left on it, for a tenant. */
async function liveLeft(actor: Actor, capturedMinor = 5_000) {
  const pi = `pi_pc_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  await sandbox.control.createPaymentIntent({ id: pi, amount: capturedMinor, currency: "eur" });
  const order = await db().order.findFirstOrThrow({ where: { tenantId: actor.tenantId } });
  return refundableLeftLive(
    sqlPool(),
    {
      tenantId: actor.tenantId,
      orderId: order.id,
      provider: "stripe",
      paymentRef: pi,
      ledgerCapturedMinor: capturedMinor,
      payment: { currency: "EUR", capturedMinor },
    },
    { now: new Date() },
  );
}

describe("per-tenant provider connection", () => {
  it("is for admins, needs step-up, refuses malformed credentials with the field", async () => {
    expect(await refusal(setProviderConnection(R, { apiKey: TENANT_KEY, webhookSecret: TENANT_SECRET }))).toMatchObject(
      { code: "permission_denied" },
    );
    expect(await refusal(getProviderConnection(R))).toMatchObject({ code: "permission_denied" });
    expect(await refusal(testProviderConnection(R))).toMatchObject({ code: "permission_denied" });
    const stale = await actorFor(staffOf(ES, "admin").email, { authAgoSeconds: 3600 });
    expect(
      await refusal(setProviderConnection(stale, { apiKey: TENANT_KEY, webhookSecret: TENANT_SECRET })),
    ).toMatchObject({
      code: "permission_denied",
      reason: "step_up_required",
    });
    expect(
      await refusal(
        setProviderConnection(stale, { apiKey: TENANT_KEY, webhookSecret: TENANT_SECRET, stepUpPassword: "wrong" }),
      ),
    ).toMatchObject({
      code: "permission_denied",
      reason: "step_up_failed",
    });
    const bad = await refusal(
      setProviderConnection(A, { apiKey: "pk_test_publishable", webhookSecret: TENANT_SECRET }),
    );
    expect(bad).toMatchObject({ code: "invalid_arguments" });
    expect(bad.message).toContain("apiKey");
    expect(await refusal(setProviderConnection(A, { apiKey: TENANT_KEY, webhookSecret: "secret" }))).toMatchObject({
      code: "invalid_arguments",
    });
    expect(await db().providerConnection.count()).toBe(0);
  });

  it("without a connection a tenant uses the process-wide default; the view shows the webhook URL and events", async () => {
    expect(await getProviderConnection(A)).toMatchObject({
      source: "default",
      apiKeyHint: null,
      canStore: true,
      webhookUrl: expect.stringMatching(/\/api\/payments\/webhook\/tienda-es$/),
      events: ["refund.created", "refund.updated", "refund.failed", "charge.refunded", "charge.dispute.created"],
    });
    expect(await testProviderConnection(A)).toEqual({ ok: true, source: "default" });
  });

  it("stores the key and secret sealed (never in clear, never in the audit), shows a hint only", async () => {
    expect(await setProviderConnection(A, { apiKey: TENANT_KEY, webhookSecret: TENANT_SECRET })).toEqual({
      source: "tenant",
      apiKeyHint: `rk_test_…${TENANT_KEY.slice(-4)}`,
    });
    const row = await rowOf(A.tenantId);
    expect(JSON.stringify(row)).not.toContain(TENANT_KEY.slice(8));
    expect(JSON.stringify(row)).not.toContain(TENANT_SECRET.slice(6));
    expect(row.apiKeySealed).toMatch(/^v1\./);
    const view = await getProviderConnection(A);
    expect(view).toMatchObject({ source: "tenant", apiKeyHint: `rk_test_…${TENANT_KEY.slice(-4)}` });
    expect(JSON.stringify(view)).not.toContain(TENANT_KEY.slice(8));
    const event = await db().auditEvent.findFirstOrThrow({
      where: { tenantId: A.tenantId, action: "admin:set_provider_connection" },
    });
    expect(event.data).toMatchObject({
      after: { restrictedHint: `rk_test_…${TENANT_KEY.slice(-4)}`, webhookSigning: "set" },
    });
    expect(JSON.stringify(event)).not.toContain(TENANT_KEY.slice(8));
    expect(JSON.stringify(event)).not.toContain(TENANT_SECRET.slice(6));
  });

  it("Test connection asks the provider with the tenant's key: accepted, and refused for a key the provider does not know", async () => {
    expect(await testProviderConnection(A)).toEqual({ ok: true, source: "tenant" });
    const before = sandbox.control;
    expect(before).toBeDefined();
    await setProviderConnection(A, {
      apiKey: `rk_test_${randomUUID().replace(/-/g, "")}`,
      webhookSecret: TENANT_SECRET,
    });
    const refused = await testProviderConnection(A);
    expect(refused).toMatchObject({ ok: false, source: "tenant", problem: "refused" });
    // The other tenant still uses the default and is unaffected.
    expect(await testProviderConnection(U)).toEqual({ ok: true, source: "default" });
    await setProviderConnection(A, { apiKey: TENANT_KEY, webhookSecret: TENANT_SECRET });
    expect(
      await db().auditEvent.count({ where: { tenantId: A.tenantId, action: "admin:set_provider_connection" } }),
    ).toBe(3);
  });

  it("live reads use the tenant's own key: a key the provider refuses makes that tenant's read unavailable, not the other's", async () => {
    expect(await liveLeft(A)).toMatchObject({ ok: true, live: true, capturedMinor: 5_000 });
    const { version } = await rowOf(A.tenantId);
    await setProviderConnection(A, {
      apiKey: `rk_test_${randomUUID().replace(/-/g, "")}`,
      webhookSecret: TENANT_SECRET,
    });
    expect((await rowOf(A.tenantId)).version).toBe(version + 1);
    // The cached provider is rebuilt from the new version at once (no restart).
    expect(await liveLeft(A)).toMatchObject({ ok: false, reason: "provider_unavailable" });
    expect(await liveLeft(U)).toMatchObject({ ok: true, live: true });
    await setProviderConnection(A, { apiKey: TENANT_KEY, webhookSecret: TENANT_SECRET });
    expect(await liveLeft(A)).toMatchObject({ ok: true, live: true });
  });

  it("a row copied to another tenant does not open there (the tenant id is the AAD): fails closed, not the default key", async () => {
    const es = await rowOf(A.tenantId);
    await db().providerConnection.create({
      data: {
        tenantId: U.tenantId,
        apiKeyHint: es.apiKeyHint,
        apiKeySealed: es.apiKeySealed,
        webhookSecretSealed: es.webhookSecretSealed,
        keyId: es.keyId,
      },
    });
    await expect(paymentProviderFor(U.tenantId)).rejects.toThrow(ProviderConnectionUnusable);
    await expect(paymentProviderFor(U.tenantId)).rejects.toThrow(/of another tenant/);
    expect(await liveLeft(U)).toMatchObject({ ok: false, reason: "provider_unavailable" });
    expect(await testProviderConnection(U)).toMatchObject({ ok: false, source: "tenant", problem: "unusable" });
    expect(await removeProviderConnection(U, {})).toEqual({ removed: true });
    expect(await removeProviderConnection(U, {})).toEqual({ removed: false });
    expect(await testProviderConnection(U)).toEqual({ ok: true, source: "default" });
    expect(
      await db().auditEvent.count({ where: { tenantId: U.tenantId, action: "admin:remove_provider_connection" } }),
    ).toBe(1);
  });
});

function rotateScript(
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "scripts/secrets-rotate.ts"],
      {
        env: { ...process.env, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += String(d)));
    child.stderr.on("data", (d) => (stderr += String(d)));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("SECRETS_KEY rotation", () => {
  it("a wrong key fails closed with a clear error (the process goes on); the rotation script reports it and changes nothing", async () => {
    const before = await rowOf(A.tenantId);
    process.env.SECRETS_KEY = newKey();
    resetPaymentProvider();
    await expect(paymentProviderFor(A.tenantId)).rejects.toThrow(/no configured SECRETS_KEY has id/);
    expect(await liveLeft(A)).toMatchObject({ ok: false, reason: "provider_unavailable" });
    expect(await testProviderConnection(A)).toMatchObject({
      ok: false,
      problem: "unusable",
      message: expect.stringMatching(/SECRETS_KEY_PREVIOUS/),
    });
    const run = await rotateScript({ APP_MODE: "demo", SECRETS_KEY: process.env.SECRETS_KEY });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ resealed: 0, failed: [{ tenantId: A.tenantId }] });
    expect(await rowOf(A.tenantId)).toEqual(before);
    process.env.SECRETS_KEY = K1;
    resetPaymentProvider();
  });

  it("rows sealed under the old key open during the overlap, are re-sealed by secrets:rotate, and open with the old key removed", async () => {
    const K2 = newKey();
    const sealedUnderK1 = await rowOf(A.tenantId);
    process.env.SECRETS_KEY = K2;
    process.env.SECRETS_KEY_PREVIOUS = K1;
    resetPaymentProvider();
    // Overlap: the old rows still open.
    expect(await testProviderConnection(A)).toEqual({ ok: true, source: "tenant" });

    const run = await rotateScript({ APP_MODE: "demo", SECRETS_KEY: K2, SECRETS_KEY_PREVIOUS: K1 });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ resealed: 1, alreadyCurrent: 0, failed: [] });
    const resealed = await rowOf(A.tenantId);
    expect(resealed.keyId).not.toBe(sealedUnderK1.keyId);
    expect(resealed.apiKeySealed).not.toBe(sealedUnderK1.apiKeySealed);
    expect(resealed.version).toBe(sealedUnderK1.version + 1);
    expect(
      await db().auditEvent.count({ where: { tenantId: A.tenantId, action: "operator:reseal_provider_connection" } }),
    ).toBe(1);

    // The old key removed: everything still opens, and the provider answers with the tenant's key.
    delete process.env.SECRETS_KEY_PREVIOUS;
    resetPaymentProvider();
    expect(await testProviderConnection(A)).toEqual({ ok: true, source: "tenant" });
    expect(await liveLeft(A)).toMatchObject({ ok: true, live: true });
    // A second run has nothing to do.
    expect(await resealProviderConnections()).toEqual({ resealed: 0, current: 1, failed: [] });
  });
});
