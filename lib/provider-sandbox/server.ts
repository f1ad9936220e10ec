// The sandbox payment provider: a plain node:http server speaking a subset of Stripe's refunds API
// (form-encoded requests, Stripe-shaped JSON, Stripe's idempotency semantics), with its own PostgreSQL
// store, switchable faults and signed webhooks. See docs/provider-sandbox.md.
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import pg from "pg";
import { handleControl, type ControlState } from "./control";
import { FaultBoard, type FaultMatch } from "./faults";
import { canonicalForm, FormError, parseStripeForm, type FormObject } from "./form";
import { newId } from "./ids";
import { stripeError, type ErrorAnswer } from "./objects";
import { createRefund, listRefunds, REFUND_MODES, retrieveRefund, settleDueRefunds, validateCreateRefund, type Answer, type Behaviour } from "./refunds";
import { ensureDatabase, ensureSchema, inTransaction } from "./schema";
import { deliverDueEvents, type WebhookTarget } from "./webhooks";

export type SandboxProviderOptions = {
  /** URL of the sandbox's own database (created when missing, on the same server). */
  databaseUrl: string;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Accepted secret keys (`sk_test_…`); requests must send one as `Authorization: Bearer`. */
  apiKey: string | string[];
  /** Bearer token of the `/__control/…` endpoints. */
  controlToken: string;
  webhookUrl?: string;
  webhookSecret?: string;
  /** Webhook retries: attempts in all (default 8) and the first backoff (default 500 ms, doubling). */
  webhookMaxAttempts?: number;
  webhookBaseDelayMs?: number;
  /** How often pending refunds and due webhooks are looked at (default 100 ms). */
  tickMs?: number;
  log?: (line: string) => void;
};

export type SandboxProvider = { url: string; port: number; close: () => Promise<void> };

const MAX_BODY = 64 * 1024;
const IDEMPOTENCY_NAMESPACE = "sandbox-idempotency";

export async function startSandboxProvider(options: SandboxProviderOptions): Promise<SandboxProvider> {
  const log = options.log ?? (() => undefined);
  const apiKeys = (Array.isArray(options.apiKey) ? options.apiKey : [options.apiKey]).filter(Boolean);
  if (apiKeys.length === 0) throw new Error("the sandbox needs at least one API key");
  if (!options.controlToken) throw new Error("the sandbox needs a control token");
  if (options.webhookUrl && !options.webhookSecret) throw new Error("a webhook URL needs a webhook secret");

  await ensureDatabase(options.databaseUrl);
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 20 });
  let stopping = false;
  pool.on("error", (error) => {
    if (!stopping) log(`database pool error: ${error.message}`);
  });
  await ensureSchema(pool);

  const faults = new FaultBoard();
  const stats: Record<string, number> = { createRefund: 0, replayed: 0, idempotencyConflicts: 0, idempotencyMismatches: 0, failed5xx: 0, hung: 0, dropped: 0 };
  const stored = await pool.query<{ value: Behaviour }>("SELECT value FROM settings WHERE key = 'behaviour'");
  let behaviour: Behaviour = stored.rows[0]?.value ?? { mode: "succeed", delayMs: 500 };
  const webhook: WebhookTarget | null = options.webhookUrl
    ? {
        url: options.webhookUrl,
        secret: options.webhookSecret!,
        maxAttempts: options.webhookMaxAttempts ?? 8,
        baseDelayMs: options.webhookBaseDelayMs ?? 500,
        timeoutMs: 5_000,
      }
    : null;
  const control: ControlState = {
    pool,
    faults,
    get behaviour() {
      return behaviour;
    },
    setBehaviour: async (b) => {
      if (!REFUND_MODES.includes(b.mode)) throw new Error(`unknown refund mode ${b.mode}`);
      await pool.query("INSERT INTO settings (key, value) VALUES ('behaviour', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", [
        JSON.stringify(b),
      ]);
      behaviour = b;
    },
    withEvents: webhook !== null,
    stats,
  };

  /** Requests held open on purpose (accept_then_hang); destroyed at shutdown. */
  const parked = new Set<ServerResponse>();
  const sockets = new Set<Socket>();

  const send = (res: ServerResponse, answer: Answer, headers: Record<string, string> = {}) => {
    if (res.headersSent || res.destroyed) return;
    const body = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
    res.writeHead(answer.status, { "content-type": "application/json", "stripe-version": "2026-10-28.endive", ...headers });
    res.end(body);
  };

  /** After the work is done (and committed): answer, or misbehave as a fault asks. */
  const finish = (req: IncomingMessage, res: ServerResponse, fault: FaultMatch, answer: Answer, headers?: Record<string, string>) => {
    if (fault.action === "accept_then_hang") {
      stats.hung!++;
      parked.add(res);
      res.on("close", () => parked.delete(res));
      return;
    }
    if (fault.action === "drop_after_commit") {
      stats.dropped!++;
      req.socket.destroy();
      return;
    }
    send(res, answer, headers);
  };

  const authorized = (req: IncomingMessage): ErrorAnswer | null => {
    const header = req.headers.authorization ?? "";
    // Stripe takes the key as a bearer token or as the user name of basic auth (`curl -u sk_test_…:`).
    const basic = /^Basic (.+)$/.exec(header)?.[1];
    const match = basic ? /^([^:]+):?$/.exec(Buffer.from(basic, "base64").toString("utf8")) : /^Bearer (.+)$/.exec(header);
    if (!match)
      return stripeError(
        401,
        "invalid_request_error",
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
      );
    const given = match[1]!;
    if (!apiKeys.some((k) => safeEqual(k, given))) {
      return stripeError(
        401,
        "invalid_request_error",
        `Invalid API Key provided: ${given.slice(0, 8)}${"*".repeat(Math.max(0, given.length - 12))}${given.slice(-4)}`,
        { code: "api_key_invalid" },
      );
    }
    return null;
  };

  const createRefundRoute = async (req: IncomingMessage, res: ServerResponse, form: FormObject) => {
    stats.createRefund!++;
    const params = validateCreateRefund(form);
    if ("body" in params) return send(res, params);
    const idempotencyKey = headerValue(req, "idempotency-key");
    if (idempotencyKey !== null && (idempotencyKey.length === 0 || idempotencyKey.length > 255)) {
      return send(res, stripeError(400, "invalid_request_error", "Idempotency keys must be 1 to 255 characters long.", { param: "Idempotency-Key" }));
    }
    const fingerprint = createHash("sha256")
      .update(`POST /v1/refunds ${canonicalForm(form)}`)
      .digest("hex");
    const fault = faults.match({ endpoint: "create", paymentIntent: params.paymentIntent });
    type Outcome = { refused: ErrorAnswer } | { answer: Answer; headers: Record<string, string> };
    const outcome = await inTransaction(pool, async (client, rollback): Promise<Outcome> => {
      if (idempotencyKey !== null) {
        // Held until COMMIT/ROLLBACK: a second request with this key meanwhile gets 409, like Stripe.
        const lock = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS ok", [
          `${IDEMPOTENCY_NAMESPACE}:${idempotencyKey}`,
        ]);
        if (!lock.rows[0]!.ok) {
          rollback();
          stats.idempotencyConflicts!++;
          return {
            refused: stripeError(
              409,
              "idempotency_error",
              `There is currently another in-progress request using this Idempotency-Key (that probably means you submitted twice, and the other request is still going through): ${idempotencyKey}. Please try again later.`,
              { code: "idempotency_key_in_use" },
            ),
          };
        }
      }
      if (fault.latencyMs > 0) await sleep(fault.latencyMs);
      const previous =
        idempotencyKey === null
          ? null
          : await client.query<{ fingerprint: string; path: string; status_code: number; body: string; request_id: string }>(
              "SELECT * FROM idempotency_keys WHERE key = $1",
              [idempotencyKey],
            );
      const saved = previous?.rows[0];
      if (saved && saved.fingerprint !== fingerprint) {
        rollback();
        stats.idempotencyMismatches!++;
        return {
          refused: stripeError(
            400,
            "idempotency_error",
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          ),
        };
      }
      if (fault.action === "fail_5xx") {
        rollback();
        stats.failed5xx!++;
        return { refused: stripeError(500, "api_error", "An unknown error occurred (sandbox fault fail_5xx); nothing was committed.") };
      }
      if (saved) {
        rollback();
        stats.replayed!++;
        return {
          answer: { status: saved.status_code, body: saved.body },
          headers: { "idempotent-replayed": "true", "original-request": saved.request_id },
        };
      }
      const answer = await createRefund(client, params, { behaviour, idempotencyKey, withEvents: webhook !== null });
      // Stripe saves the result of every request that started executing, errors included.
      if (idempotencyKey !== null) {
        await client.query(
          "INSERT INTO idempotency_keys (key, method, path, fingerprint, request_id, status_code, body) VALUES ($1, 'POST', '/v1/refunds', $2, $3, $4, $5)",
          [idempotencyKey, fingerprint, String(res.getHeader("request-id")), answer.status, JSON.stringify(answer.body)],
        );
      }
      return { answer, headers: {} };
    });
    if ("refused" in outcome) return send(res, outcome.refused);
    finish(req, res, fault, outcome.answer, outcome.headers);
  };

  const readRoute = async (req: IncomingMessage, res: ServerResponse, run: () => Promise<Answer>, paymentIntent: string | null) => {
    const fault = faults.match({ endpoint: "read", paymentIntent });
    if (fault.latencyMs > 0) await sleep(fault.latencyMs);
    if (fault.action === "fail_5xx") return send(res, stripeError(500, "api_error", "An unknown error occurred (sandbox fault fail_5xx)."));
    finish(req, res, fault, await run());
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://sandbox");
    const method = req.method ?? "GET";
    res.setHeader("request-id", newId("req", 14));
    const raw = await readBody(req);
    if (raw === null) return send(res, stripeError(413, "invalid_request_error", "Request body too large."));

    if (url.pathname.startsWith("/__control/")) {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
      if (url.pathname !== "/__control/health" && !safeEqual(token, options.controlToken))
        return send(res, stripeError(401, "invalid_request_error", "Invalid control token."));
      let body: unknown = undefined;
      if (raw.length > 0) {
        try {
          body = JSON.parse(raw);
        } catch {
          return send(res, stripeError(400, "invalid_request_error", "The control endpoint takes JSON."));
        }
      }
      return send(res, await handleControl(control, method, url.pathname, body));
    }

    const denied = authorized(req);
    if (denied) return send(res, denied);
    let form: FormObject;
    try {
      form = parseStripeForm(method === "GET" ? url.search.slice(1) : raw);
    } catch (error) {
      if (error instanceof FormError) return send(res, stripeError(400, "invalid_request_error", error.message, { param: error.param }));
      throw error;
    }
    const refundId = /^\/v1\/refunds\/([^/]+)$/.exec(url.pathname)?.[1];
    if (method === "POST" && url.pathname === "/v1/refunds") return createRefundRoute(req, res, form);
    if (method === "GET" && url.pathname === "/v1/refunds") {
      return readRoute(req, res, () => listRefunds(pool, form), typeof form.payment_intent === "string" ? form.payment_intent : null);
    }
    if (method === "GET" && refundId) return readRoute(req, res, () => retrieveRefund(pool, decodeURIComponent(refundId)), null);
    return send(
      res,
      stripeError(
        404,
        "invalid_request_error",
        `Unrecognized request URL (${method}: ${url.pathname}). This sandbox speaks a subset of Stripe's API: see docs/provider-sandbox.md.`,
      ),
    );
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`request failed: ${error instanceof Error ? error.message : String(error)}`);
      send(res, stripeError(500, "api_error", "An unknown error occurred."));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  // Background: settle pending refunds that are due, deliver webhooks. One pass at a time.
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    await settleDueRefunds(pool, webhook !== null);
    if (webhook) await deliverDueEvents(pool, webhook, log);
  };
  const schedule = () => {
    if (stopping) return;
    timer = setTimeout(() => {
      running = tick()
        .catch((error: unknown) => log(`background pass failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(schedule);
    }, options.tickMs ?? 100);
  };
  schedule();

  let closing: Promise<void> | null = null;
  return {
    url: `http://${options.host ?? "127.0.0.1"}:${port}`,
    port,
    close: () =>
      (closing ??= (async () => {
        stopping = true;
        if (timer) clearTimeout(timer);
        await running;
        for (const res of parked) res.destroy();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          setTimeout(() => {
            for (const socket of sockets) socket.destroy();
          }, 1_000).unref();
        });
        await pool.end();
      })()),
  };
}

function headerValue(req: IncomingMessage, name: string): string | null {
  const v = req.headers[name];
  if (v === undefined) return null;
  return Array.isArray(v) ? (v[0] ?? "") : v;
}

function safeEqual(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > MAX_BODY) {
      req.resume();
      return resolve(null);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > MAX_BODY ? null : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
