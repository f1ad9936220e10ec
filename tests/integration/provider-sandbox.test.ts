// The sandbox payment provider as a real separate process (spawned script, its own database on the
// test PostgreSQL server), driven through the payment adapter on the official stripe package: the
// answers the execution worker and the reconciler will rely on, fault by fault.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sandboxControl, type SandboxControl } from "@/provider-sandbox/control-client";
import { withPgClient } from "@/lib/server/db/pg-client";
import type { CreateRefundInput, PaymentProvider } from "@/lib/server/payments/payment-provider";
import { createStripePaymentProvider } from "@/lib/server/payments/stripe-provider";
import { findFreePort } from "../../scripts/lib/embedded-postgres";

const API_KEY = `sk_test_${randomUUID().replace(/-/g, "")}`;
const CONTROL_TOKEN = `ctl_${randomUUID()}`;
const WEBHOOK_SECRET = `whsec_${randomUUID().replace(/-/g, "")}`;
/** Short, so accept-then-hang answers `unknown/timeout` quickly; long enough for a loaded 2-core box. */
const ADAPTER_TIMEOUT_MS = 1_500;

const serverUrl = inject("serverUrl");
const sandboxDb = `provider_sandbox_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
const databaseUrl = serverUrl.replace(/\/postgres$/, `/${sandboxDb}`);

type Received = { headers: IncomingHttpHeaders; body: string; status: number };
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/**
 * When set, the receiver answers 500 to the first delivery whose body contains this text (then clears it);
 * everything else gets 200. Keyed by content, not by order: earlier tests' webhooks (a hundred refunds in one
 * of them) may still be arriving when a test starts.
 */
let failFirstDeliveryOf: string | null = null;

let port: number;
let sandbox: ChildProcess | null = null;
let sandboxOutput = "";
let control: SandboxControl;
/** For ordinary calls: a generous timeout, so a loaded machine does not turn answers into timeouts. */
let provider: PaymentProvider;
/** For the hang and latency faults: gives up after ADAPTER_TIMEOUT_MS. */
let impatient: PaymentProvider;

async function startSandbox(): Promise<void> {
  sandboxOutput = "";
  const child = spawn(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      "scripts/provider-sandbox.ts",
      "--port",
      String(port),
      "--database-url",
      databaseUrl,
      "--api-key",
      API_KEY,
      "--control-token",
      CONTROL_TOKEN,
      "--webhook-url",
      `${receiverUrl}/provider-webhook`,
      "--webhook-secret",
      WEBHOOK_SECRET,
      "--webhook-base-delay-ms",
      "100",
    ],
    { cwd: process.cwd(), stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, DATABASE_URL: "" } },
  );
  sandbox = child;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sandbox did not start in 30 s:\n${sandboxOutput}`)), 30_000);
    const onData = (chunk: Buffer) => {
      sandboxOutput += chunk.toString();
      if (/listening on http:\/\/127\.0\.0\.1:\d+/.test(sandboxOutput)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (c: Buffer) => (sandboxOutput += c.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited with ${code}:\n${sandboxOutput}`));
    });
  });
}

async function stopSandbox(): Promise<number | null> {
  const child = sandbox;
  if (!child || child.exitCode !== null) return child?.exitCode ?? null;
  sandbox = null;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

const adapter = (overrides: { apiKey?: string; port?: number; timeoutMs?: number } = {}) =>
  createStripePaymentProvider({
    apiKey: overrides.apiKey ?? API_KEY,
    host: "127.0.0.1",
    port: overrides.port ?? port,
    protocol: "http",
    timeoutMs: overrides.timeoutMs ?? ADAPTER_TIMEOUT_MS,
    webhookSecret: WEBHOOK_SECRET,
  });

let piCounter = 0;
async function paymentIntent(amount = 10_000, currency = "eur"): Promise<string> {
  const id = `pi_test_${Date.now().toString(36)}_${++piCounter}`;
  await control.createPaymentIntent({ id, amount, currency });
  return id;
}

const refundInput = (pi: string, overrides: Partial<CreateRefundInput> = {}): CreateRefundInput => {
  const proposalId = overrides.metadata?.proposalId ?? randomUUID();
  return {
    paymentIntent: pi,
    amountMinor: 2_500,
    currency: "EUR",
    idempotencyKey: `exec_${randomUUID()}`,
    ...overrides,
    metadata: { proposalId, tenantId: "tenant-1", ...overrides.metadata },
  };
};

const refundsOn = async (pi: string) => (await control.counters()).paymentIntents[pi]?.refunds ?? 0;

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const fail = failFirstDeliveryOf !== null && body.includes(failFirstDeliveryOf);
      if (fail) failFirstDeliveryOf = null;
      received.push({ headers: req.headers, body, status: fail ? 500 : 200 });
      const status = fail ? 500 : 200;
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  port = await findFreePort();
  await startSandbox();
  control = sandboxControl(`http://127.0.0.1:${port}`, CONTROL_TOKEN);
  provider = adapter({ timeoutMs: 15_000 });
  impatient = adapter();
});

afterAll(async () => {
  await stopSandbox();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await withPgClient(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${sandboxDb}" WITH (FORCE)`));
});

describe("sandbox provider through the stripe adapter", () => {
  it("creates a refund: succeeded, Stripe-shaped, in the sandbox's own database", async () => {
    const pi = await paymentIntent();
    const input = refundInput(pi);
    const result = await provider.createRefund(input);
    expect(result).toMatchObject({ outcome: "succeeded", replayed: false });
    if (result.outcome !== "succeeded") throw new Error("unreachable");
    expect(result.refundId).toMatch(/^re_[A-Za-z0-9]{24}$/);
    expect(result.refund).toMatchObject({
      paymentIntent: pi,
      amountMinor: 2_500,
      currency: "EUR",
      status: "succeeded",
      metadata: input.metadata,
    });
    expect(await refundsOn(pi)).toBe(1);
    expect((await control.paymentIntent(pi)).amount_refunded).toBe(2_500);

    const retrieved = await provider.retrieveRefund(result.refundId);
    expect(retrieved).toEqual({ outcome: "found", refund: result.refund });
    // The store is a real database of its own, not memory.
    const row = await withPgClient(databaseUrl, (db) =>
      db.query(
        "SELECT r.amount, k.key FROM refunds r JOIN idempotency_keys k ON k.key = r.idempotency_key WHERE r.id = $1",
        [result.refundId],
      ),
    );
    expect(row.rows).toEqual([{ amount: "2500", key: input.idempotencyKey }]);
  });

  it("replays the first answer for the same key and parameters: one refund", async () => {
    const pi = await paymentIntent();
    const input = refundInput(pi);
    const first = await provider.createRefund(input);
    const second = await provider.createRefund(input);
    expect(first).toMatchObject({ outcome: "succeeded", replayed: false });
    expect(second).toMatchObject({ outcome: "succeeded", replayed: true });
    if (first.outcome !== "succeeded" || second.outcome !== "succeeded") throw new Error("unreachable");
    expect(second.refundId).toBe(first.refundId);
    expect(await refundsOn(pi)).toBe(1);
  });

  it("refuses the same key with another amount (idempotency error) and creates nothing", async () => {
    const pi = await paymentIntent();
    const input = refundInput(pi);
    await provider.createRefund(input);
    const other = await provider.createRefund({ ...input, amountMinor: 2_600 });
    expect(other).toMatchObject({
      outcome: "failed",
      reason: "idempotency_key_reused",
      refundId: null,
      statusCode: 400,
    });
    expect(await refundsOn(pi)).toBe(1);
  });

  it("concurrent requests with one key: a single refund, the others 409 in progress or a replay", async () => {
    const pi = await paymentIntent();
    // Hold the first request inside its transaction so the others meet its lock.
    await control.addFault({ kind: "latency", latencyMs: 400, once: false, paymentIntent: pi });
    const input = refundInput(pi);
    const results = await Promise.all(Array.from({ length: 8 }, () => provider.createRefund(input)));
    await control.clearFaults();
    const ids = new Set(results.flatMap((r) => (r.outcome === "succeeded" ? [r.refundId] : [])));
    expect(ids.size).toBe(1);
    expect(
      results.filter((r) => r.outcome === "unknown" && r.cause === "idempotency_in_progress").length,
    ).toBeGreaterThan(0);
    expect(
      results.every(
        (r) => r.outcome === "succeeded" || (r.outcome === "unknown" && r.cause === "idempotency_in_progress"),
      ),
    ).toBe(true);
    expect(await refundsOn(pi)).toBe(1);
    // Once the first has finished, the key replays it.
    expect(await provider.createRefund(input)).toMatchObject({
      outcome: "succeeded",
      replayed: true,
      refundId: [...ids][0],
    });
  });

  it("concurrent requests with different keys cannot refund more than was captured", async () => {
    const pi = await paymentIntent(10_000);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => provider.createRefund(refundInput(pi, { amountMinor: 3_000 }))),
    );
    expect(results.filter((r) => r.outcome === "succeeded")).toHaveLength(3);
    expect(results.filter((r) => r.outcome === "failed" && r.reason === "amount_too_large")).toHaveLength(3);
    expect((await control.paymentIntent(pi)).amount_refunded).toBe(9_000);
    expect(await provider.createRefund(refundInput(pi, { amountMinor: 1_000 }))).toMatchObject({
      outcome: "succeeded",
    });
    expect(await provider.createRefund(refundInput(pi, { amountMinor: 1 }))).toMatchObject({
      outcome: "failed",
      reason: "already_refunded",
    });
  });

  it("accept-then-hang: unknown/timeout, and the committed refund is found by proposalId", async () => {
    const pi = await paymentIntent();
    await control.addFault({ kind: "accept_then_hang", paymentIntent: pi });
    const input = refundInput(pi);
    const result = await impatient.createRefund(input);
    expect(result).toMatchObject({ outcome: "unknown", cause: "timeout", statusCode: null });
    expect(await refundsOn(pi)).toBe(1);

    const found = await provider.findRefunds({ paymentIntent: pi, proposalId: input.metadata.proposalId });
    expect(found.outcome).toBe("ok");
    if (found.outcome !== "ok") throw new Error("unreachable");
    expect(found.refunds).toHaveLength(1);
    expect(found.refunds[0]).toMatchObject({
      amountMinor: 2_500,
      status: "succeeded",
      metadata: { proposalId: input.metadata.proposalId },
    });
    // Another proposal on the same payment intent finds nothing.
    expect(await provider.findRefunds({ paymentIntent: pi, proposalId: randomUUID() })).toEqual({
      outcome: "ok",
      refunds: [],
    });
    // The same key now replays the committed refund (the fault was one-shot).
    expect(await provider.createRefund(input)).toMatchObject({
      outcome: "succeeded",
      replayed: true,
      refundId: found.refunds[0]!.id,
    });
    expect(await refundsOn(pi)).toBe(1);
  });

  it("drop-after-commit: unknown/connection, sent once (no hidden client retry), one refund found", async () => {
    const pi = await paymentIntent();
    await control.addFault({ kind: "drop_after_commit", paymentIntent: pi, once: false });
    const before = (await control.counters()).requests;
    const input = refundInput(pi);
    const result = await provider.createRefund(input);
    const after = (await control.counters()).requests;
    await control.clearFaults();
    expect(result).toMatchObject({ outcome: "unknown", cause: "connection" });
    expect(after.createRefund! - before.createRefund!).toBe(1);
    expect(after.dropped! - before.dropped!).toBe(1);
    expect(await refundsOn(pi)).toBe(1);
    const found = await provider.findRefunds({ paymentIntent: pi, proposalId: input.metadata.proposalId });
    expect(found.outcome === "ok" && found.refunds.length).toBe(1);
  });

  it("fail-5xx: unknown/server_error, nothing committed; the same key then executes once", async () => {
    const pi = await paymentIntent();
    await control.addFault({ kind: "fail_5xx", paymentIntent: pi });
    const input = refundInput(pi);
    const result = await provider.createRefund(input);
    expect(result).toMatchObject({ outcome: "unknown", cause: "server_error", statusCode: 500 });
    expect(await refundsOn(pi)).toBe(0);
    expect(await provider.findRefunds({ paymentIntent: pi, proposalId: input.metadata.proposalId })).toEqual({
      outcome: "ok",
      refunds: [],
    });
    // The provider confirms it has no such refund: a re-send with the *same* key is now safe.
    expect(await provider.createRefund(input)).toMatchObject({ outcome: "succeeded", replayed: false });
    expect(await refundsOn(pi)).toBe(1);
  });

  it("latency beyond the adapter's timeout: unknown/timeout, and the refund appears afterwards", async () => {
    const pi = await paymentIntent();
    await control.addFault({ kind: "latency", latencyMs: ADAPTER_TIMEOUT_MS + 500, paymentIntent: pi });
    const input = refundInput(pi);
    expect(await impatient.createRefund(input)).toMatchObject({ outcome: "unknown", cause: "timeout" });
    const found = await waitFor("the late refund", async () => {
      const r = await provider.findRefunds({ paymentIntent: pi, proposalId: input.metadata.proposalId });
      return r.outcome === "ok" && r.refunds.length === 1 ? r.refunds : undefined;
    });
    expect(found[0]).toMatchObject({ amountMinor: 2_500, status: "succeeded" });
  });

  it("faults on reads: a failing list is unknown, never an empty answer", async () => {
    const pi = await paymentIntent();
    await control.addFault({ kind: "fail_5xx", on: "read", paymentIntent: pi });
    expect(await provider.findRefunds({ paymentIntent: pi, proposalId: "x" })).toMatchObject({
      outcome: "unknown",
      cause: "server_error",
    });
    await control.addFault({ kind: "accept_then_hang", on: "read" });
    expect(await impatient.retrieveRefund("re_whatever")).toMatchObject({ outcome: "unknown", cause: "timeout" });
    expect(await provider.retrieveRefund("re_doesnotexist")).toEqual({ outcome: "not_found" });
  });

  it("definitive refusals and transport failures are told apart", async () => {
    const pi = await paymentIntent(1_000);
    expect(await provider.createRefund(refundInput("pi_unknown_to_the_sandbox"))).toMatchObject({
      outcome: "failed",
      reason: "payment_intent_not_found",
      statusCode: 404,
    });
    expect(await provider.createRefund(refundInput(pi, { amountMinor: 1_001 }))).toMatchObject({
      outcome: "failed",
      reason: "amount_too_large",
      statusCode: 400,
    });
    expect(await adapter({ apiKey: "sk_test_wrong" }).createRefund(refundInput(pi))).toMatchObject({
      outcome: "unknown",
      cause: "authentication",
      statusCode: 401,
    });
    const closedPort = await findFreePort();
    expect(await adapter({ port: closedPort }).createRefund(refundInput(pi))).toMatchObject({
      outcome: "unknown",
      cause: "connection",
    });
    expect(await refundsOn(pi)).toBe(0);
    // Programming errors are not provider answers: they throw before anything is sent.
    await expect(provider.createRefund(refundInput(pi, { amountMinor: 0 }))).rejects.toThrow();
  });

  it("lists every page: findRefunds sees a proposal's refunds among more than 100", async () => {
    const pi = await paymentIntent(1_000_000);
    const proposalId = randomUUID();
    for (let batch = 0; batch < 6; batch++) {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          provider.createRefund(
            refundInput(pi, {
              amountMinor: 10,
              metadata: { proposalId: batch === 0 && i < 2 ? proposalId : randomUUID(), tenantId: "t" },
            }),
          ),
        ),
      );
    }
    expect(await refundsOn(pi)).toBe(120);
    const found = await provider.findRefunds({ paymentIntent: pi, proposalId });
    expect(found.outcome === "ok" && found.refunds.length).toBe(2);
  });

  it("pending refunds settle later, announced by Stripe-signed webhooks that verifyWebhook accepts", async () => {
    const pi = await paymentIntent();
    await control.setBehaviour({ paymentIntent: pi, mode: "pending_then_succeed", delayMs: 200 });
    failFirstDeliveryOf = `"${pi}"`; // this refund's first webhook delivery fails: the sandbox retries it
    const result = await provider.createRefund(refundInput(pi));
    expect(result.outcome).toBe("pending");
    if (result.outcome !== "pending") throw new Error("unreachable");

    const delivery = await waitFor("refund.updated webhook", () =>
      received.find((r) => r.body.includes(`"${result.refundId}"`) && r.body.includes('"refund.updated"')),
    );
    const verified = provider.verifyWebhook(delivery.body, delivery.headers["stripe-signature"] as string);
    expect(verified.ok).toBe(true);
    if (!verified.ok) throw new Error("unreachable");
    expect(verified.event.type).toBe("refund.updated");
    expect(verified.event.refund).toMatchObject({ id: result.refundId, status: "succeeded", amountMinor: 2_500 });
    expect(await provider.retrieveRefund(result.refundId)).toMatchObject({
      outcome: "found",
      refund: { status: "succeeded" },
    });

    // Tampered body, wrong secret, missing header: refused.
    expect(
      provider.verifyWebhook(
        delivery.body.replace('"amount": 2500', '"amount": 250000'),
        delivery.headers["stripe-signature"] as string,
      ).ok,
    ).toBe(false);
    expect(provider.verifyWebhook(delivery.body, undefined).ok).toBe(false);
    const otherSecret = createStripePaymentProvider({ apiKey: API_KEY, timeoutMs: 1000, webhookSecret: "whsec_other" });
    expect(otherSecret.verifyWebhook(delivery.body, delivery.headers["stripe-signature"] as string).ok).toBe(false);

    // The delivery that got the 500 (this refund's first event) was sent again, the same event, and got its 200;
    // refund.created was delivered too. Deliveries run concurrently, so wait for both rather than read once.
    const eventId = (r: Received) => (JSON.parse(r.body) as { id: string }).id;
    const mine = () => received.filter((r) => r.body.includes(`"${pi}"`));
    const failed = await waitFor("the failed delivery", () => mine().find((r) => r.status === 500));
    await waitFor("the retried delivery", () =>
      mine().find((r) => r.status === 200 && eventId(r) === eventId(failed) && r !== failed),
    );
    const settled = await waitFor("refund.created and the retried event delivered", async () => {
      const events = (await control.events()).data.filter(
        (e) => e.id === eventId(failed) || e.type === "refund.created",
      );
      const retried = events.find((e) => e.id === eventId(failed));
      const ok =
        retried !== undefined &&
        retried.attempts >= 2 &&
        retried.delivered_at !== null &&
        retried.last_status === 200 &&
        mine().some((r) => r.body.includes('"refund.created"') && r.status === 200);
      return ok ? retried : undefined;
    });
    expect(settled).toMatchObject({ attempts: expect.any(Number), last_status: 200 });
    expect(settled.attempts).toBeGreaterThanOrEqual(2);
  });

  it("a pending refund that fails: refund.failed webhook, and the amount is refundable again", async () => {
    const pi = await paymentIntent(5_000);
    await control.setBehaviour({ paymentIntent: pi, mode: "pending_then_fail", delayMs: 100 });
    const result = await provider.createRefund(refundInput(pi, { amountMinor: 5_000 }));
    expect(result.outcome).toBe("pending");
    if (result.outcome !== "pending") throw new Error("unreachable");
    const delivery = await waitFor("refund.failed webhook", () =>
      received.find((r) => r.body.includes(`"${result.refundId}"`) && r.body.includes('"refund.failed"')),
    );
    const verified = provider.verifyWebhook(Buffer.from(delivery.body), delivery.headers["stripe-signature"] as string);
    expect(verified.ok && verified.event.refund).toMatchObject({
      id: result.refundId,
      status: "failed",
      failureReason: expect.any(String),
    });
    expect((await control.paymentIntent(pi)).amount_refunded).toBe(0);
    // A refund that fails at once is a definitive failure with its refund id.
    await control.setBehaviour({ paymentIntent: pi, mode: "fail" });
    const failed = await provider.createRefund(refundInput(pi));
    expect(failed).toMatchObject({
      outcome: "failed",
      reason: "refund_failed",
      refundId: expect.stringMatching(/^re_/),
    });
  });

  it("20 accept-then-hang refunds: 20 unknown answers, exactly 20 refunds in the store, each found once", async () => {
    const pi = await paymentIntent(1_000_000);
    await control.addFault({ kind: "accept_then_hang", paymentIntent: pi, once: false });
    const inputs = Array.from({ length: 20 }, () => refundInput(pi, { amountMinor: 1_000 }));
    const hungBefore = (await control.counters()).requests.hung ?? 0;
    const results = await Promise.all(inputs.map((input) => impatient.createRefund(input)));
    // The client gives up after 1.5 s; on a loaded machine the sandbox may still be committing the last of the
    // 20 (they queue on one payment intent). Count once it has parked all 20 answers, i.e. committed each.
    await waitFor("the sandbox to commit and park all 20", async () =>
      ((await control.counters()).requests.hung ?? 0) - hungBefore >= 20 ? true : undefined,
    );
    await control.clearFaults();
    expect(results.map((r) => (r.outcome === "unknown" ? r.cause : r.outcome))).toEqual(Array(20).fill("timeout"));
    expect(await refundsOn(pi)).toBe(20);
    for (const input of inputs) {
      const found = await provider.findRefunds({ paymentIntent: pi, proposalId: input.metadata.proposalId });
      expect(found.outcome === "ok" && found.refunds.length).toBe(1);
    }
    // Reconciling with the same keys replays; still 20.
    const again = await Promise.all(inputs.map((input) => provider.createRefund(input)));
    expect(again.every((r) => r.outcome === "succeeded" && r.replayed)).toBe(true);
    expect(await refundsOn(pi)).toBe(20);
  });

  it("survives a restart of the sandbox process: refunds, idempotency keys and balances", async () => {
    const pi = await paymentIntent();
    const input = refundInput(pi);
    const first = await provider.createRefund(input);
    if (first.outcome !== "succeeded") throw new Error(`unexpected ${first.outcome}`);
    const before = await control.counters();

    const exitCode = await stopSandbox();
    expect({ exitCode, sandboxOutput }).toEqual({
      exitCode: 0,
      sandboxOutput: expect.stringContaining("SIGTERM: stopping"),
    });
    expect(await provider.retrieveRefund(first.refundId)).toMatchObject({ outcome: "unknown", cause: "connection" });
    await startSandbox();

    expect(await provider.retrieveRefund(first.refundId)).toEqual({ outcome: "found", refund: first.refund });
    expect(await provider.createRefund(input)).toMatchObject({
      outcome: "succeeded",
      replayed: true,
      refundId: first.refundId,
    });
    const after = await control.counters();
    expect(after.refunds.total).toBe(before.refunds.total);
    expect(after.idempotencyKeys).toBe(before.idempotencyKeys);
    expect((await control.paymentIntent(pi)).amount_refunded).toBe(2_500);
  });
});
