// The sandbox shop — a tenant's action endpoint — as a real separate process (spawned script, its own database on
// the test PostgreSQL server), driven with real Standard-Webhooks-signed requests (the `standardwebhooks` package,
// as the gateway's executor will sign them): exactly one effect per idempotency key, the stored answer by key,
// refusals, and the payment sandbox's faults.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { shopControl, type ShopControl } from "@/shop-sandbox/control-client";
import { withPgClient } from "@/lib/server/db/pg-client";
import { findFreePort } from "../../scripts/lib/embedded-postgres";

const SIGNING_SECRET = `whsec_${randomBytes(32).toString("base64")}`;
const CONTROL_TOKEN = `ctl_${randomUUID()}`;

const serverUrl = inject("serverUrl");
const shopDb = `shop_sandbox_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
const databaseUrl = serverUrl.replace(/\/postgres$/, `/${shopDb}`);

let base: string;
let shop: ChildProcess | null = null;
let shopOutput = "";
let control: ShopControl;

async function startShop(port: number): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      "scripts/shop-sandbox.ts",
      "--port",
      String(port),
      "--database-url",
      databaseUrl,
      "--signing-secret",
      SIGNING_SECRET,
      "--control-token",
      CONTROL_TOKEN,
    ],
    { cwd: process.cwd(), stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, DATABASE_URL: "" } },
  );
  shop = child;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`shop did not start in 30 s:\n${shopOutput}`)), 30_000);
    child.stdout.on("data", (chunk: Buffer) => {
      shopOutput += chunk.toString();
      if (/listening on http:\/\/127\.0\.0\.1:\d+/.test(shopOutput)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr.on("data", (c: Buffer) => (shopOutput += c.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`shop exited with ${code}:\n${shopOutput}`));
    });
  });
}

async function stopShop(): Promise<number | null> {
  const child = shop;
  if (!child || child.exitCode !== null) return child?.exitCode ?? null;
  shop = null;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

/** The three Standard Webhooks headers over `body` (for a GET: the idempotency key it asks about). */
function signed(body: string, opts: { secret?: string; at?: Date } = {}): Record<string, string> {
  const id = `msg_${randomUUID()}`;
  const at = opts.at ?? new Date();
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(opts.secret ?? SIGNING_SECRET).sign(id, at, body),
  };
}

/** The answer's JSON, read by the assertions (a wrong shape fails them). */
type Body = Record<string, unknown>;
type Reply = { status: number; body: Body; headers: Headers };

async function post(
  action: unknown,
  opts: { headers?: Record<string, string>; timeoutMs?: number; rawBody?: string } = {},
): Promise<Reply> {
  const body = opts.rawBody ?? JSON.stringify(action);
  const response = await fetch(`${base}/actions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(opts.headers ?? signed(body)) },
    body,
    signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
  });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

async function get(key: string, headers: Record<string, string> = signed(key)): Promise<Reply> {
  const response = await fetch(`${base}/actions/${encodeURIComponent(key)}`, {
    headers,
    signal: AbortSignal.timeout(15_000),
  });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

let orderCounter = 0;
/** A fresh order at the shop, in the given state. */
async function order(status: "unfulfilled" | "shipped" | "delivered" | "cancelled" = "unfulfilled"): Promise<string> {
  const number = `#${Date.now().toString(36)}-${++orderCounter}`;
  await control.setOrder(number, {
    status,
    shippingAddress: { line1: "Calle Mayor 1", city: "Madrid", country: "ES" },
  });
  return number;
}

const cancel = (orderNumber: string, key = `act_${randomUUID()}`) => ({
  kind: "cancel_order",
  proposal_id: randomUUID(),
  idempotency_key: key,
  subject: { type: "order", ref: orderNumber },
  params: { reason: "customer_request" },
});

const NEW_ADDRESS = {
  name: "Ana García",
  line1: "Gran Vía 2",
  line2: null,
  city: "Madrid",
  postal_code: "28013",
  region: null,
  country: "ES",
};
const changeAddress = (orderNumber: string, key = `act_${randomUUID()}`) => ({
  kind: "change_shipping_address",
  proposal_id: randomUUID(),
  idempotency_key: key,
  subject: { type: "order", ref: orderNumber },
  params: { after: NEW_ADDRESS },
});

const actionsOf = async (key: string) => (await control.actions({ idempotencyKey: key })).data;

beforeAll(async () => {
  const port = await findFreePort();
  base = `http://127.0.0.1:${port}`;
  await startShop(port);
  control = shopControl(base, CONTROL_TOKEN);
});

afterAll(async () => {
  expect(await stopShop()).toBe(0);
  await withPgClient(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${shopDb}" WITH (FORCE)`));
});

describe("sandbox shop: the action endpoint", () => {
  it("cancels an order once: the same key replays the same answer and never cancels twice", async () => {
    const number = await order();
    const action = cancel(number);
    const first = await post(action);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ status: "succeeded", reference: expect.stringMatching(/^cxl_[A-Za-z0-9]{24}$/) });
    expect((await control.order(number))?.status).toBe("cancelled");

    // The shop's back office reopens the order: a re-sent action must not cancel it a second time.
    await control.setOrder(number, { status: "unfulfilled" });
    const again = await post(action);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await control.order(number))?.status).toBe("unfulfilled");

    const stored = await actionsOf(action.idempotency_key);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ kind: "cancel_order", proposalId: action.proposal_id, request: action });
    // The store is a real database of its own.
    const rows = await withPgClient(databaseUrl, (db) =>
      db.query("SELECT status, reference FROM shop_actions WHERE idempotency_key = $1", [action.idempotency_key]),
    );
    expect(rows.rows).toEqual([{ status: "succeeded", reference: first.body.reference }]);
  });

  it("refuses to cancel a shipped, delivered or already cancelled order (failed, with the reason)", async () => {
    for (const [status, message] of [
      ["shipped", "order_shipped"],
      ["delivered", "order_delivered"],
      ["cancelled", "order_already_cancelled"],
    ] as const) {
      const number = await order(status);
      const reply = await post(cancel(number));
      expect(reply.status, status).toBe(200);
      expect(reply.body, status).toEqual({ status: "failed", reference: null, message });
      expect((await control.order(number))?.status).toBe(status);
    }
  });

  it("an unknown order and an unsupported kind are failed answers, stored under their key", async () => {
    const unknown = cancel(`#no-such-order-${randomUUID()}`);
    expect((await post(unknown)).body).toEqual({ status: "failed", reference: null, message: "order_not_found" });
    expect((await get(unknown.idempotency_key)).body).toEqual({
      status: "failed",
      reference: null,
      message: "order_not_found",
    });

    const number = await order();
    const other = { ...cancel(number), kind: "issue_store_credit" };
    const reply = await post(other);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: "failed", reference: null, message: "unsupported kind" });
    expect((await control.order(number))?.status).toBe("unfulfilled");
  });

  it("changes the shipping address of an unfulfilled order; refuses once it has shipped", async () => {
    const number = await order();
    const reply = await post(changeAddress(number));
    expect(reply.body).toEqual({ status: "succeeded", reference: expect.stringMatching(/^adr_[A-Za-z0-9]{24}$/) });
    expect((await control.order(number))?.shippingAddress).toEqual(NEW_ADDRESS);

    const shipped = await order("shipped");
    const before = (await control.order(shipped))?.shippingAddress;
    expect((await post(changeAddress(shipped))).body).toEqual({
      status: "failed",
      reference: null,
      message: "order_shipped",
    });
    expect((await control.order(shipped))?.shippingAddress).toEqual(before);
  });

  it("refuses a bad, missing or old signature with 401 JSON, and does nothing", async () => {
    const number = await order();
    const action = cancel(number);
    const body = JSON.stringify(action);
    const otherSecret = `whsec_${randomBytes(32).toString("base64")}`;
    const attempts: Record<string, Record<string, string>> = {
      "another secret": signed(body, { secret: otherSecret }),
      "no headers": {},
      "ten minutes old": signed(body, { at: new Date(Date.now() - 10 * 60_000) }),
      "another body": signed(JSON.stringify({ ...action, params: {} })),
    };
    for (const [what, headers] of Object.entries(attempts)) {
      const reply = await post(action, { headers });
      expect(reply.status, what).toBe(401);
      expect(reply.body.error, what).toBe("invalid_signature");
    }
    expect((await get(action.idempotency_key, signed("", { secret: otherSecret }))).status).toBe(401);
    expect((await get(action.idempotency_key, {})).status).toBe(401);
    expect(await actionsOf(action.idempotency_key)).toEqual([]);
    expect((await control.order(number))?.status).toBe("unfulfilled");
  });

  it("refuses a malformed body with 400 (signed, but not the contract's five fields)", async () => {
    const number = await order();
    for (const body of [
      "not json",
      JSON.stringify({ ...cancel(number), extra: 1 }),
      JSON.stringify({ ...cancel(number), idempotency_key: "" }),
      JSON.stringify({ ...cancel(number), subject: number }),
    ]) {
      const reply = await post(null, { rawBody: body });
      expect(reply.status, body).toBe(400);
      expect(reply.body.error).toBe("invalid_request");
    }
    expect((await control.order(number))?.status).toBe("unfulfilled");
  });

  it("the same key with another body is 409 idempotency_key_reused, and the first answer stands", async () => {
    const number = await order();
    const action = cancel(number);
    const first = await post(action);
    expect(first.body.status).toBe("succeeded");
    const reused = await post({ ...changeAddress(number), idempotency_key: action.idempotency_key });
    expect(reused.status).toBe(409);
    expect(reused.body.error).toBe("idempotency_key_reused");
    expect((await get(action.idempotency_key)).body).toEqual(first.body);
    expect(await actionsOf(action.idempotency_key)).toHaveLength(1);
  });

  it("GET by key answers the stored answer; a key that never arrived is 404 not_found", async () => {
    const number = await order();
    const action = changeAddress(number);
    const created = await post(action);
    const read = await get(action.idempotency_key);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    const missing = await get(`act_${randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: "not_found" });
  });

  it("a GET's signature covers the key it asks about: one signed for another key, or over the empty body, is 401", async () => {
    const number = await order();
    const action = cancel(number);
    expect((await post(action)).status).toBe(200);
    const forOther = await get(action.idempotency_key, signed(`act_${randomUUID()}`));
    expect(forOther.status).toBe(401);
    expect(forOther.body).toMatchObject({ error: "invalid_signature" });
    expect((await get(action.idempotency_key, signed(""))).status).toBe(401);
    expect((await get(action.idempotency_key)).status).toBe(200);
  });

  it("fail_5xx: 500, nothing done and nothing stored; the same key then succeeds", async () => {
    const number = await order();
    const action = cancel(number);
    await control.addFault({ kind: "fail_5xx", orderNumber: number });
    const failed = await post(action);
    expect(failed.status).toBe(500);
    expect(failed.body.error).toBe("server_error");
    expect((await control.order(number))?.status).toBe("unfulfilled");
    expect((await get(action.idempotency_key)).status).toBe(404);

    const retried = await post(action);
    expect(retried.status).toBe(200);
    expect(retried.body.status).toBe("succeeded");
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expect((await control.order(number))?.status).toBe("cancelled");
  });

  it("drop_after_commit: the client sees the connection die, the GET by key shows it succeeded", async () => {
    const number = await order();
    const action = cancel(number);
    await control.addFault({ kind: "drop_after_commit", orderNumber: number });
    const error = await post(action).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError); // fetch failed: the socket closed without an answer
    const read = await get(action.idempotency_key);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ status: "succeeded", reference: expect.stringMatching(/^cxl_/) });
    expect((await control.order(number))?.status).toBe("cancelled");
    // A re-send with the same key (what a client unsure of the outcome may do) replays, never cancels again.
    expect((await post(action)).body).toEqual(read.body);
    expect(await actionsOf(action.idempotency_key)).toHaveLength(1);
  });

  it("accept_then_hang: committed but never answered; the GET by key shows it", async () => {
    const number = await order();
    const action = changeAddress(number);
    await control.addFault({ kind: "accept_then_hang", orderNumber: number });
    const error = await post(action, { timeoutMs: 1_500 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as Error | null)?.name).toBe("TimeoutError");
    const read = await get(action.idempotency_key);
    expect(read.body).toEqual({ status: "succeeded", reference: expect.stringMatching(/^adr_/) });
    expect((await control.order(number))?.shippingAddress).toEqual(NEW_ADDRESS);
  });

  it("answer_pending: queued, nothing done until the shop completes it; then done once, and the GET says so", async () => {
    const number = await order();
    const action = cancel(number);
    await control.addFault({ kind: "answer_pending", orderNumber: number });
    const queued = await post(action);
    expect(queued.status).toBe(200);
    expect(queued.body).toMatchObject({ status: "pending", reference: expect.stringMatching(/^que_/) });
    expect((await control.order(number))?.status).toBe("unfulfilled");
    expect((await get(action.idempotency_key)).body).toMatchObject({ status: "pending" });
    // A re-send with the key is a replay of the pending answer, never the action.
    expect((await post(action)).body).toMatchObject({ status: "pending" });
    expect((await control.order(number))?.status).toBe("unfulfilled");

    expect(await control.completeAction(action.idempotency_key)).toMatchObject({ status: "succeeded" });
    expect((await control.order(number))?.status).toBe("cancelled");
    expect((await get(action.idempotency_key)).body).toEqual({
      status: "succeeded",
      reference: expect.stringMatching(/^cxl_/),
    });
    // Completed once: a second completion is refused, an unknown key is not found.
    await expect(control.completeAction(action.idempotency_key)).rejects.toMatchObject({ status: 409 });
    await expect(control.completeAction(`act_${randomUUID()}`)).rejects.toMatchObject({ status: 404 });
    expect(await actionsOf(action.idempotency_key)).toHaveLength(1);
  });

  it("two concurrent POSTs with one key make one effect and give one answer", async () => {
    const number = await order();
    const action = cancel(number);
    // Held inside its transaction, so the second request arrives while the first holds the key.
    await control.addFault({ kind: "latency", latencyMs: 400, orderNumber: number, once: false });
    const replies = await Promise.all([post(action), post(action), post(action)]);
    await control.clearFaults();
    for (const reply of replies) expect(reply.status).toBe(200);
    expect(new Set(replies.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(replies[0]?.body.status).toBe("succeeded");
    expect(replies.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(2);
    expect(await actionsOf(action.idempotency_key)).toHaveLength(1);
    expect((await control.order(number))?.status).toBe("cancelled");
  });

  it("two concurrent cancellations of one order under different keys: one succeeds, the other is refused", async () => {
    const number = await order();
    // The test holds the order's row lock until both requests wait on the shop's database, so they truly overlap:
    // each must re-read the order after the other's commit, not act on what it saw before.
    const replies = await withPgClient(databaseUrl, async (db) => {
      await db.query("BEGIN");
      await db.query("SELECT 1 FROM shop_orders WHERE order_number = $1 FOR UPDATE", [number]);
      const both = Promise.all([post(cancel(number)), post(cancel(number))]);
      const deadline = Date.now() + 15_000;
      for (;;) {
        const waiting = await db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        if (waiting.rows[0]!.n >= 2) break;
        if (Date.now() > deadline) throw new Error("the two requests never waited on the order's lock");
        await new Promise((r) => setTimeout(r, 20));
      }
      await db.query("COMMIT");
      return both;
    });
    expect(replies.map((r) => r.body.status).sort()).toEqual(["failed", "succeeded"]);
    expect(replies.find((r) => r.body.status === "failed")?.body.message).toBe("order_already_cancelled");
  });

  it("the control endpoint wants its own token; faults are listed and cleared", async () => {
    const wrong = await fetch(`${base}/__control/faults`, { headers: { authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
    await control.addFault({ kind: "latency", latencyMs: 1, on: "read", once: false });
    expect((await control.faults()).data).toMatchObject([{ kind: "latency", on: "read", once: false }]);
    await control.clearFaults();
    expect((await control.faults()).data).toEqual([]);
    expect(await control.order(`#unknown-${randomUUID()}`)).toBeNull();
  });
});
