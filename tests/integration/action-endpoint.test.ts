// The tenant's action endpoint (docs/action-endpoint.md) against the real sandbox shop (a spawned process with its
// own database on the test server) and the real database: Admin sets the URL and the product generates the
// Standard Webhooks secret (shown once, sealed, a hint afterwards; step-up; admins of this tenant only; audited
// without the secret); "Test" is a signed GET of a random key and says clearly why it fails (wrong secret at the
// shop, nothing listening, a private address where none is allowed, a wrong path); the client sends actions once
// per key, reads them back by key, and turns every fault (5xx, timeout, a hang, a dropped connection) into
// "unknown", which the GET reconciles; the secret re-seals with SECRETS_KEY's rotation.
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { shopControl, type ShopControl } from "@/shop-sandbox/control-client";
import { getActionEndpoint } from "@/lib/server/admin/action-endpoint/get-action-endpoint";
import { removeActionEndpoint } from "@/lib/server/admin/action-endpoint/remove-action-endpoint";
import { setActionEndpoint } from "@/lib/server/admin/action-endpoint/set-action-endpoint";
import { testActionEndpoint } from "@/lib/server/admin/action-endpoint/test-action-endpoint";
import { lookupAction, sendAction, keyUrl } from "@/lib/server/action-endpoint/client";
import { ActionEndpointUnavailable } from "@/lib/server/action-endpoint/stored-endpoint";
import { resealProviderConnections } from "@/lib/server/secrets/reseal-provider-connections";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { withPgClient } from "@/lib/server/db/pg-client";
import { findFreePort } from "../../scripts/lib/embedded-postgres";
import { actorFor, staffOf } from "../support/actors";
import { refusal } from "../support/refusal";
import { startShopProcess, type ShopProcess } from "../support/shop-process";

const ES = "tienda-es";
const US = "shop-us";
const CONTROL_TOKEN = `ctl_${randomUUID()}`;
const newKey = () => randomBytes(32).toString("base64");
const K1 = newKey();

const serverUrl = inject("serverUrl");
const shopDb = `shop_sandbox_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
const shopDatabaseUrl = serverUrl.replace(/\/postgres$/, `/${shopDb}`);

let port: number;
let base: string;
let shop: ShopProcess | null = null;
let control: ShopControl;
let A: Actor; // tienda-es admin
let U: Actor; // shop-us admin
let R: Actor; // tienda-es reviewer
/** The secret the product generated and the admin gave the shop. */
let secret: string;

/** Starts the shop on `port` with `signingSecret` (the shop's own configuration: the admin pastes the secret there). */
async function startShop(signingSecret: string): Promise<void> {
  shop = await startShopProcess({ port, databaseUrl: shopDatabaseUrl, signingSecret, controlToken: CONTROL_TOKEN });
}

async function stopShop(): Promise<void> {
  const running = shop;
  shop = null;
  await running?.stop();
}

/** The shop's operator sets the signing secret the gateway's admin was shown (a restart with the new value). */
async function shopUses(signingSecret: string): Promise<void> {
  await stopShop();
  await startShop(signingSecret);
}

let orderCounter = 0;
async function order(status: "unfulfilled" | "shipped" = "unfulfilled"): Promise<string> {
  const number = `#ae-${Date.now().toString(36)}-${++orderCounter}`;
  await control.setOrder(number, { status });
  return number;
}
const cancel = (orderNumber: string, key = `exec_${randomUUID()}`) => ({
  kind: "cancel_order",
  proposal_id: randomUUID(),
  idempotency_key: key,
  subject: { type: "order", ref: orderNumber },
  params: { reason: "customer_request" },
});
const rowOf = (tenantId: string) => db().actionEndpoint.findUniqueOrThrow({ where: { tenantId } });
/** The tenant's latest `admin:set_action_endpoint` event (as a one-element list). */
const lastEndpointEvents = (tenantId: string) =>
  db().auditEvent.findMany({
    where: { tenantId, action: "admin:set_action_endpoint" },
    orderBy: { pos: "desc" },
    take: 1,
  });
const actionsAt = async (key: string) => (await control.actions({ idempotencyKey: key })).data;

/** Polls the shop for a key until it answers something other than not_found (a held action commits later). */
async function lookupUntilFound(key: string) {
  for (let i = 0; i < 40; i++) {
    const answer = await lookupAction(A.tenantId, key);
    if (!("outcome" in answer && answer.outcome === "not_found")) return answer;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no answer for ${key}`);
}

beforeAll(async () => {
  process.env.SECRETS_KEY = K1;
  delete process.env.SECRETS_KEY_PREVIOUS;
  port = await findFreePort();
  base = `http://127.0.0.1:${port}`;
  // The shop starts with a secret of its own: until its operator pastes ours, it refuses our signature.
  await startShop(`whsec_${randomBytes(32).toString("base64")}`);
  control = shopControl(base, CONTROL_TOKEN);
  A = await actorFor(staffOf(ES, "admin").email);
  U = await actorFor(staffOf(US, "admin").email);
  R = await actorFor(staffOf(ES, "reviewer").email);
});

afterAll(async () => {
  process.env.APP_MODE = "demo";
  delete process.env.SECRETS_KEY;
  delete process.env.SECRETS_KEY_PREVIOUS;
  await stopShop();
  await withPgClient(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${shopDb}" WITH (FORCE)`));
});

describe("Admin → Action endpoint", () => {
  it("is for this tenant's admins, needs step-up, refuses a malformed URL", async () => {
    const url = `${base}/actions`;
    expect(await refusal(setActionEndpoint(R, { url }))).toMatchObject({ code: "permission_denied" });
    expect(await refusal(getActionEndpoint(R))).toMatchObject({ code: "permission_denied" });
    expect(await refusal(testActionEndpoint(R))).toMatchObject({ code: "permission_denied" });
    expect(await refusal(removeActionEndpoint(R, {}))).toMatchObject({ code: "permission_denied" });
    const stale = await actorFor(staffOf(ES, "admin").email, { authAgoSeconds: 3600 });
    expect(await refusal(setActionEndpoint(stale, { url }))).toMatchObject({
      code: "permission_denied",
      reason: "step_up_required",
    });
    expect(await refusal(setActionEndpoint(stale, { url, stepUpPassword: "wrong" }))).toMatchObject({
      code: "permission_denied",
      reason: "step_up_failed",
    });
    expect(await refusal(setActionEndpoint(A, { url: "ftp://shop.example.com/actions" }))).toMatchObject({
      code: "invalid_arguments",
      problem: "protocol",
    });
    expect(await refusal(setActionEndpoint(A, { url, secret: "whsec_mine" }))).toMatchObject({
      code: "invalid_arguments",
    });
    expect(await db().actionEndpoint.count()).toBe(0);
    expect(await getActionEndpoint(A)).toEqual({
      configured: false,
      url: null,
      secretHint: null,
      updatedAt: null,
      previousSecretUntil: null,
      canStore: true,
    });
    expect(await testActionEndpoint(A)).toMatchObject({ ok: false, problem: "not_configured" });
  });

  it("the first save generates the secret, answered once; it is sealed at rest, a hint only afterwards, never audited", async () => {
    const saved = await setActionEndpoint(A, { url: `${base}/actions` });
    expect(saved.url).toBe(`${base}/actions`);
    expect(saved.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    secret = saved.secret!;
    expect(saved.secretHint).toBe(`whsec_…${secret.slice(-4)}`);
    const row = await rowOf(A.tenantId);
    expect(row.secretSealed).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(secret.slice(6));
    const view = await getActionEndpoint(A);
    expect(view).toMatchObject({ configured: true, url: `${base}/actions`, secretHint: saved.secretHint });
    expect(JSON.stringify(view)).not.toContain(secret.slice(6));
    const event = await db().auditEvent.findFirstOrThrow({
      where: { tenantId: A.tenantId, action: "admin:set_action_endpoint" },
    });
    expect(event.data).toMatchObject({
      target: { kind: "action_endpoint" },
      before: null,
      after: { url: `${base}/actions`, signingHint: saved.secretHint, signing: "set" },
    });
    expect(JSON.stringify(event)).not.toContain(secret.slice(6));
  });

  it("Test: refused signature until the shop has the secret, then passes, with no effect at the shop", async () => {
    const before = await control.counters();
    const wrong = await testActionEndpoint(A);
    expect(wrong).toMatchObject({ ok: false, problem: "signature_refused", status: 401 });
    expect(JSON.stringify(wrong)).not.toContain(secret.slice(6));

    await shopUses(secret);
    const passed = await testActionEndpoint(A);
    expect(passed).toMatchObject({ ok: true, status: 404 });
    const after = await control.counters();
    expect(after.actions.total).toBe(before.actions.total); // a read only: nothing done, nothing stored
  });

  it("another tenant's admin neither reads nor changes it; their own is separate", async () => {
    expect(await getActionEndpoint(U)).toMatchObject({ configured: false, url: null, secretHint: null });
    expect(await removeActionEndpoint(U, {})).toEqual({ removed: false });
    expect(await testActionEndpoint(U)).toMatchObject({ ok: false, problem: "not_configured" });
    await expect(sendAction(U.tenantId, cancel("#1"))).rejects.toMatchObject({ problem: "not_configured" });
    const ours = await rowOf(A.tenantId);
    const theirs = await setActionEndpoint(U, { url: `${base}/actions` });
    expect(theirs.secret).not.toBe(secret);
    expect(await rowOf(A.tenantId)).toEqual(ours);
    // U's secret is not the shop's: its Test fails while A's passes.
    expect(await testActionEndpoint(U)).toMatchObject({ ok: false, problem: "signature_refused" });
    expect(await testActionEndpoint(A)).toMatchObject({ ok: true });
    expect(await removeActionEndpoint(U, {})).toEqual({ removed: true });
    expect(await rowOf(A.tenantId)).toEqual(ours);
  });

  it("two first saves at once: one generates the secret, the other keeps it — the secret answered is the one stored", async () => {
    for (let round = 0; round < 10; round++) {
      const saves = await Promise.allSettled([1, 2, 3].map(() => setActionEndpoint(U, { url: `${base}/actions` })));
      expect(saves.map((s) => s.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
      const answered = saves.flatMap((s) => (s.status === "fulfilled" && s.value.secret ? [s.value.secret] : []));
      expect(answered).toHaveLength(1);
      expect((await rowOf(U.tenantId)).secretHint).toBe(`whsec_…${answered[0]!.slice(-4)}`);
      expect(await removeActionEndpoint(U, {})).toEqual({ removed: true });
    }
  });

  it("Test fails with a clear code: nothing listening, a wrong path, a private address where none is allowed", async () => {
    const free = await findFreePort();
    const keep = await setActionEndpoint(A, { url: `http://127.0.0.1:${free}/actions` });
    expect(keep.secret).toBeNull(); // a new URL keeps the secret
    expect(keep.secretHint).toBe(`whsec_…${secret.slice(-4)}`);
    expect(await testActionEndpoint(A)).toMatchObject({ ok: false, problem: "unreachable", status: null });

    await setActionEndpoint(A, { url: `${base}/not-actions` });
    expect(await testActionEndpoint(A)).toMatchObject({ ok: false, problem: "bad_answer", status: 404 });

    await setActionEndpoint(A, { url: `${base}/actions` });
    process.env.APP_MODE = "production"; // no WEBHOOK_ALLOW_PRIVATE: loopback and private addresses refused
    try {
      expect(await testActionEndpoint(A)).toMatchObject({ ok: false, problem: "url_refused" });
      await expect(sendAction(A.tenantId, cancel("#1"))).rejects.toBeInstanceOf(ActionEndpointUnavailable);
      expect(await refusal(setActionEndpoint(A, { url: `${base}/actions` }))).toMatchObject({
        code: "invalid_arguments",
        problem: "private_address",
      });
    } finally {
      process.env.APP_MODE = "demo";
    }
    expect(await testActionEndpoint(A)).toMatchObject({ ok: true });
  });
});

describe("the client: sendAction and lookupAction", () => {
  it("sends an action: one effect per key, the same answer again, and the GET reads it back", async () => {
    const number = await order();
    const action = cancel(number);
    const first = await sendAction(A.tenantId, action);
    expect(first).toEqual({ status: "succeeded", reference: expect.stringMatching(/^cxl_/) });
    expect((await control.order(number))?.status).toBe("cancelled");

    await control.setOrder(number, { status: "unfulfilled" }); // reopened at the shop: a re-send must not cancel again
    expect(await sendAction(A.tenantId, action)).toEqual(first);
    expect((await control.order(number))?.status).toBe("unfulfilled");
    expect(await actionsAt(action.idempotency_key)).toHaveLength(1);

    expect(await lookupAction(A.tenantId, action.idempotency_key)).toEqual(first);
    expect(await lookupAction(A.tenantId, `exec_${randomUUID()}`)).toEqual({ outcome: "not_found" });
  });

  it("the shop's rules answer failed with its message; a key reused with another body is refused, nothing done", async () => {
    const shipped = await order("shipped");
    const action = cancel(shipped);
    expect(await sendAction(A.tenantId, action)).toEqual({
      status: "failed",
      reference: null,
      message: "order_shipped",
    });
    const other = await order();
    expect(await sendAction(A.tenantId, { ...cancel(other), idempotency_key: action.idempotency_key })).toMatchObject({
      outcome: "refused",
      httpStatus: 409,
      error: "idempotency_key_reused",
    });
    expect((await control.order(other))?.status).toBe("unfulfilled");
  });

  it("5xx → unknown; the GET says it never arrived; the re-send with the same key does it once", async () => {
    const number = await order();
    const action = cancel(number);
    await control.addFault({ kind: "fail_5xx", orderNumber: number });
    expect(await sendAction(A.tenantId, action)).toMatchObject({
      outcome: "unknown",
      cause: "http_status",
      httpStatus: 500,
    });
    expect(await lookupAction(A.tenantId, action.idempotency_key)).toEqual({ outcome: "not_found" });
    expect(await sendAction(A.tenantId, action)).toMatchObject({ status: "succeeded" });
    expect(await actionsAt(action.idempotency_key)).toHaveLength(1);
  });

  it("a timeout (slow shop) → unknown; the GET reconciles once the shop has committed", async () => {
    const number = await order();
    const action = cancel(number);
    await control.addFault({ kind: "latency", latencyMs: 2_500, orderNumber: number });
    expect(await sendAction(A.tenantId, action, { timeoutMs: 500 })).toMatchObject({
      outcome: "unknown",
      cause: "timeout",
      why: "timeout after 500 ms",
    });
    expect(await lookupUntilFound(action.idempotency_key)).toMatchObject({
      status: "succeeded",
      reference: expect.stringMatching(/^cxl_/),
    });
    expect((await control.order(number))?.status).toBe("cancelled");
    expect(await actionsAt(action.idempotency_key)).toHaveLength(1);
  });

  it("accept_then_hang and drop_after_commit → unknown; the GET finds the committed action; a re-send replays it", async () => {
    for (const kind of ["accept_then_hang", "drop_after_commit"] as const) {
      const number = await order();
      const action = cancel(number);
      await control.addFault({ kind, orderNumber: number });
      const sent = await sendAction(A.tenantId, action, { timeoutMs: 1_000 });
      expect(sent, kind).toMatchObject({
        outcome: "unknown",
        cause: kind === "accept_then_hang" ? "timeout" : "connection",
      });
      const found = await lookupAction(A.tenantId, action.idempotency_key);
      expect(found, kind).toMatchObject({ status: "succeeded", reference: expect.stringMatching(/^cxl_/) });
      expect(await sendAction(A.tenantId, action), kind).toEqual(found);
      expect(await actionsAt(action.idempotency_key), kind).toHaveLength(1);
      expect((await control.order(number))?.status, kind).toBe("cancelled");
    }
  });

  it("a malformed answer is unknown, never taken as an outcome", async () => {
    // The GET of a path that is not the endpoint's (a wrong URL): a 404 that is not "not found".
    await setActionEndpoint(A, { url: `${base}/elsewhere` });
    expect(await lookupAction(A.tenantId, "k1")).toMatchObject({ outcome: "unknown", httpStatus: 404 });
    expect(await sendAction(A.tenantId, cancel("#x"))).toMatchObject({ outcome: "refused", httpStatus: 404 });
    await setActionEndpoint(A, { url: `${base}/actions` });
    expect(keyUrl("https://shop.example.com/hooks/actions/?v=1", "exec #1/2")).toBe(
      "https://shop.example.com/hooks/actions/exec%20%231%2F2?v=1",
    );
  });
});

describe("rotation and removal", () => {
  it("rotating with an overlap: both secrets sign until it ends, so the shop switches without a refusal", async () => {
    const old = secret;
    const first = await setActionEndpoint(A, { url: `${base}/actions`, rotateSecret: true, overlapMinutes: 30 });
    expect(first.secret).toMatch(/^whsec_/);
    const until = Date.parse(first.previousSecretUntil!);
    expect(Math.abs(until - (Date.now() + 30 * 60_000))).toBeLessThan(60_000);
    expect((await getActionEndpoint(A)).previousSecretUntil).toBe(first.previousSecretUntil);
    // The shop still verifies with the old secret: accepted (the old one signs beside the new one) …
    expect(await testActionEndpoint(A)).toMatchObject({ ok: true });
    expect(await sendAction(A.tenantId, cancel(await order()))).toMatchObject({ status: "succeeded" });
    // … and with the new one, once it switched.
    await shopUses(first.secret!);
    expect(await testActionEndpoint(A)).toMatchObject({ ok: true });
    // A rotation during the overlap ends the older one: only the secret current just before still signs.
    const second = await setActionEndpoint(A, { url: `${base}/actions`, rotateSecret: true, overlapMinutes: 30 });
    await shopUses(old);
    expect(await testActionEndpoint(A)).toMatchObject({ ok: false, problem: "signature_refused" });
    await shopUses(first.secret!);
    expect(await testActionEndpoint(A)).toMatchObject({ ok: true });
    // Once the overlap ends, only the current secret signs.
    await db().actionEndpoint.update({
      where: { tenantId: A.tenantId },
      data: { previousSecretUntil: new Date(Date.now() - 1_000) },
    });
    expect(await testActionEndpoint(A)).toMatchObject({ ok: false, problem: "signature_refused" });
    expect((await getActionEndpoint(A)).previousSecretUntil).toBeNull();
    secret = second.secret!;
    await shopUses(secret);
    expect(await testActionEndpoint(A)).toMatchObject({ ok: true });
    const events = await lastEndpointEvents(A.tenantId);
    expect(events[0]?.data).toMatchObject({
      after: { signing: "rotated", previousSigningUntil: second.previousSecretUntil },
    });
    expect(JSON.stringify(events[0]?.data)).not.toContain(first.secret!.slice(6, 20));
  });

  it("a previous secret that does not open (a row edited behind the product) fails closed: nothing is sent", async () => {
    const row = await rowOf(A.tenantId);
    await db().actionEndpoint.update({
      where: { tenantId: A.tenantId },
      data: {
        previousSecretSealed: "v1.not-sealed",
        previousKeyId: row.keyId,
        previousSecretUntil: new Date(Date.now() + 60_000),
      },
    });
    await expect(sendAction(A.tenantId, cancel("#1"))).rejects.toMatchObject({ problem: "unusable" });
    await db().actionEndpoint.update({
      where: { tenantId: A.tenantId },
      data: { previousSecretSealed: null, previousKeyId: null, previousSecretUntil: null },
    });
    // All three or none (ActionEndpoint_previous_secret_check).
    await expect(
      db().actionEndpoint.update({ where: { tenantId: A.tenantId }, data: { previousSecretUntil: new Date() } }),
    ).rejects.toThrow(/ActionEndpoint_previous_secret_check/);
  });

  it("rotating the secret with no overlap answers a new one once; the shop refuses until it has it", async () => {
    const { version } = await rowOf(A.tenantId);
    const rotated = await setActionEndpoint(A, { url: `${base}/actions`, rotateSecret: true, overlapMinutes: 0 });
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);
    expect(rotated.previousSecretUntil).toBeNull();
    expect(await rowOf(A.tenantId)).toMatchObject({ previousSecretSealed: null, previousSecretUntil: null });
    expect((await rowOf(A.tenantId)).version).toBe(version + 1);
    expect(await testActionEndpoint(A)).toMatchObject({ ok: false, problem: "signature_refused" });
    expect(await sendAction(A.tenantId, cancel(await order()))).toMatchObject({ outcome: "refused", httpStatus: 401 });
    secret = rotated.secret!;
    await shopUses(secret);
    expect(await testActionEndpoint(A)).toMatchObject({ ok: true });
    const events = await lastEndpointEvents(A.tenantId);
    expect(events[0]?.data).toMatchObject({ after: { signing: "rotated", signingHint: `whsec_…${secret.slice(-4)}` } });
  });

  it("a row copied to another tenant does not open there (the tenant id is the AAD)", async () => {
    const es = await rowOf(A.tenantId);
    await db().actionEndpoint.create({
      data: {
        tenantId: U.tenantId,
        url: es.url,
        secretSealed: es.secretSealed,
        secretHint: es.secretHint,
        keyId: es.keyId,
      },
    });
    expect(await testActionEndpoint(U)).toMatchObject({ ok: false, problem: "unusable" });
    await expect(sendAction(U.tenantId, cancel("#1"))).rejects.toMatchObject({ problem: "unusable" });
    await db().actionEndpoint.delete({ where: { tenantId: U.tenantId } });
  });

  it("SECRETS_KEY rotation: the old key opens during the overlap, the reseal moves the secret, the old key can go", async () => {
    const K2 = newKey();
    // A signing-secret rotation still in its overlap: the previous secret is resealed too.
    const signing = await setActionEndpoint(A, { url: `${base}/actions`, rotateSecret: true, overlapMinutes: 60 });
    expect(await testActionEndpoint(A)).toMatchObject({ ok: true }); // the shop still has the previous secret
    const underK1 = await rowOf(A.tenantId);
    process.env.SECRETS_KEY = K2;
    process.env.SECRETS_KEY_PREVIOUS = K1;
    expect(await testActionEndpoint(A)).toMatchObject({ ok: true });
    expect(await resealProviderConnections()).toEqual({ resealed: 1, current: 0, failed: [] });
    const resealed = await rowOf(A.tenantId);
    expect(resealed.keyId).not.toBe(underK1.keyId);
    expect(resealed.secretSealed).not.toBe(underK1.secretSealed);
    expect(resealed.version).toBe(underK1.version + 1);
    expect(
      await db().auditEvent.count({ where: { tenantId: A.tenantId, action: "operator:reseal_action_endpoint" } }),
    ).toBe(1);
    expect(resealed.previousKeyId).toBe(resealed.keyId);
    expect(resealed.previousSecretSealed).not.toBe(underK1.previousSecretSealed);
    delete process.env.SECRETS_KEY_PREVIOUS;
    // Without the old key: both secrets still open (the shop on the previous one is still accepted).
    expect(await sendAction(A.tenantId, cancel(await order()))).toMatchObject({ status: "succeeded" });
    secret = signing.secret!;
    await shopUses(secret);
    expect(await sendAction(A.tenantId, cancel(await order()))).toMatchObject({ status: "succeeded" });
    expect(await resealProviderConnections()).toEqual({ resealed: 0, current: 1, failed: [] });
    // A key that sealed nothing here: the row fails closed, reported and unchanged.
    process.env.SECRETS_KEY = newKey();
    await expect(sendAction(A.tenantId, cancel("#1"))).rejects.toMatchObject({ problem: "unusable" });
    expect(await resealProviderConnections()).toMatchObject({
      resealed: 0,
      failed: [{ tenantId: A.tenantId, what: "action_endpoint" }],
    });
    expect(await rowOf(A.tenantId)).toEqual(resealed);
    process.env.SECRETS_KEY = K2;
  });

  it("removal: step-up, audited, and nothing can be sent afterwards", async () => {
    const stale = await actorFor(staffOf(ES, "admin").email, { authAgoSeconds: 3600 });
    expect(await refusal(removeActionEndpoint(stale, {}))).toMatchObject({ reason: "step_up_required" });
    expect(await removeActionEndpoint(A, {})).toEqual({ removed: true });
    expect(await removeActionEndpoint(A, {})).toEqual({ removed: false });
    await expect(sendAction(A.tenantId, cancel("#1"))).rejects.toMatchObject({ problem: "not_configured" });
    expect(
      await db().auditEvent.count({ where: { tenantId: A.tenantId, action: "admin:remove_action_endpoint" } }),
    ).toBe(1);
  });
});
