// The sandbox's HTTP routes: the Stripe-shaped API (`/v1/refunds`, …) behind the API keys, and the control
// endpoint behind its own token. Pure request handling; the process around it is server.ts.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type pg from "pg";
import { accountOfKey, DEFAULT_ACCOUNT } from "./accounts";
import { handleControl, type ControlState } from "./control";
import type { FaultBoard, FaultMatch } from "./faults";
import { canonicalForm, FormError, parseStripeForm, type FormObject } from "./form";
import { newId } from "./ids";
import { createPaymentIntentFromApi, retrievePaymentIntent } from "./payment-intents";
import { stripeError, type ErrorAnswer } from "./objects";
import {
  createRefund,
  listRefunds,
  retrieveRefund,
  validateCreateRefund,
  type Answer,
  type Behaviour,
} from "./refunds";
import { inTransaction } from "./store";

const MAX_BODY = 64 * 1024;
const IDEMPOTENCY_NAMESPACE = "sandbox-idempotency";

export type RoutesContext = {
  pool: pg.Pool;
  faults: FaultBoard;
  apiKeys: string[];
  controlToken: string;
  control: ControlState;
  behaviour: () => Behaviour;
  stats: Record<string, number>;
};

export function sandboxRoutes(ctx: RoutesContext) {
  const { pool, faults, apiKeys, control, stats } = ctx;
  /** Requests held open on purpose (accept_then_hang); destroyed at shutdown. */
  const parked = new Set<ServerResponse>();

  const send = (res: ServerResponse, answer: Answer, headers: Record<string, string> = {}) => {
    if (res.headersSent || res.destroyed) return;
    const body = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
    res.writeHead(answer.status, {
      "content-type": "application/json",
      "stripe-version": "2026-10-28.endive",
      ...headers,
    });
    res.end(body);
  };

  /** After the work is done (and committed): answer, or misbehave as a fault asks. */
  const finish = (
    req: IncomingMessage,
    res: ServerResponse,
    fault: FaultMatch,
    answer: Answer,
    headers?: Record<string, string>,
  ) => {
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

  /** The account the request's key opens (accounts.ts), or Stripe's 401. */
  const authorized = async (req: IncomingMessage): Promise<{ account: string } | ErrorAnswer> => {
    const header = req.headers.authorization ?? "";
    // Stripe takes the key as a bearer token or as the user name of basic auth (`curl -u sk_test_…:`).
    const basic = /^Basic (.+)$/.exec(header)?.[1];
    const match = basic
      ? /^([^:]+):?$/.exec(Buffer.from(basic, "base64").toString("utf8"))
      : /^Bearer (.+)$/.exec(header);
    if (!match)
      return stripeError(
        401,
        "invalid_request_error",
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
      );
    const given = match[1]!;
    if (apiKeys.some((k) => safeEqual(k, given))) return { account: DEFAULT_ACCOUNT };
    const account = await accountOfKey(pool, given);
    if (account === null) {
      return stripeError(
        401,
        "invalid_request_error",
        `Invalid API Key provided: ${given.slice(0, 8)}${"*".repeat(Math.max(0, given.length - 12))}${given.slice(-4)}`,
        { code: "api_key_invalid" },
      );
    }
    return { account };
  };

  const createRefundRoute = async (req: IncomingMessage, res: ServerResponse, account: string, form: FormObject) => {
    stats.createRefund!++;
    const params = validateCreateRefund(form);
    if ("body" in params) return send(res, params);
    const idempotencyKey = headerValue(req, "idempotency-key");
    if (idempotencyKey !== null && (idempotencyKey.length === 0 || idempotencyKey.length > 255)) {
      return send(
        res,
        stripeError(400, "invalid_request_error", "Idempotency keys must be 1 to 255 characters long.", {
          param: "Idempotency-Key",
        }),
      );
    }
    const fingerprint = createHash("sha256")
      .update(`POST /v1/refunds ${canonicalForm(form)}`)
      .digest("hex");
    const fault = faults.match({ endpoint: "create", paymentIntent: params.paymentIntent });
    type Outcome = { refused: ErrorAnswer } | { answer: Answer; headers: Record<string, string> };
    // Idempotency keys are per account, as at Stripe: two accounts may use the same key for different requests.
    const outcome = await inTransaction(pool, async (client, rollback): Promise<Outcome> => {
      if (idempotencyKey !== null) {
        // Held until COMMIT/ROLLBACK: a second request with this key meanwhile gets 409, like Stripe.
        const lock = await client.query<{ ok: boolean }>(
          "SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS ok",
          [`${IDEMPOTENCY_NAMESPACE}:${account}:${idempotencyKey}`],
        );
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
          : await client.query<{
              fingerprint: string;
              path: string;
              status_code: number;
              body: string;
              request_id: string;
            }>("SELECT * FROM idempotency_keys WHERE account = $1 AND key = $2", [account, idempotencyKey]);
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
        return {
          refused: stripeError(
            500,
            "api_error",
            "An unknown error occurred (sandbox fault fail_5xx); nothing was committed.",
          ),
        };
      }
      if (saved) {
        rollback();
        stats.replayed!++;
        return {
          answer: { status: saved.status_code, body: saved.body },
          headers: { "idempotent-replayed": "true", "original-request": saved.request_id },
        };
      }
      const answer = await createRefund(client, account, params, { behaviour: ctx.behaviour(), idempotencyKey });
      // Stripe saves the result of every request that started executing, errors included.
      if (idempotencyKey !== null) {
        await client.query(
          "INSERT INTO idempotency_keys (account, key, method, path, fingerprint, request_id, status_code, body) VALUES ($6, $1, 'POST', '/v1/refunds', $2, $3, $4, $5)",
          [
            idempotencyKey,
            fingerprint,
            String(res.getHeader("request-id")),
            answer.status,
            JSON.stringify(answer.body),
            account,
          ],
        );
      }
      return { answer, headers: {} };
    });
    if ("refused" in outcome) return send(res, outcome.refused);
    finish(req, res, fault, outcome.answer, outcome.headers);
  };

  const readRoute = async (
    req: IncomingMessage,
    res: ServerResponse,
    run: () => Promise<Answer>,
    paymentIntent: string | null,
  ) => {
    const fault = faults.match({ endpoint: "read", paymentIntent });
    if (fault.latencyMs > 0) await sleep(fault.latencyMs);
    if (fault.action === "fail_5xx")
      return send(res, stripeError(500, "api_error", "An unknown error occurred (sandbox fault fail_5xx)."));
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
      if (url.pathname !== "/__control/health" && !safeEqual(token, ctx.controlToken))
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

    const auth = await authorized(req);
    if (!("account" in auth)) return send(res, auth);
    const { account } = auth;
    let form: FormObject;
    try {
      form = parseStripeForm(method === "GET" ? url.search.slice(1) : raw);
    } catch (error) {
      if (error instanceof FormError)
        return send(res, stripeError(400, "invalid_request_error", error.message, { param: error.param }));
      throw error;
    }
    const refundId = /^\/v1\/refunds\/([^/]+)$/.exec(url.pathname)?.[1];
    if (method === "POST" && url.pathname === "/v1/refunds") return createRefundRoute(req, res, account, form);
    if (method === "GET" && url.pathname === "/v1/refunds") {
      return readRoute(
        req,
        res,
        () => listRefunds(pool, account, form),
        typeof form.payment_intent === "string" ? form.payment_intent : null,
      );
    }
    if (method === "GET" && refundId)
      return readRoute(req, res, () => retrieveRefund(pool, account, decodeURIComponent(refundId)), null);
    if (method === "POST" && url.pathname === "/v1/payment_intents") {
      stats.createPaymentIntent = (stats.createPaymentIntent ?? 0) + 1;
      return send(res, await createPaymentIntentFromApi(pool, account, form));
    }
    const intentId = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname)?.[1];
    if (method === "GET" && intentId) {
      const id = decodeURIComponent(intentId);
      return readRoute(req, res, () => retrievePaymentIntent(pool, account, id), id);
    }
    return send(
      res,
      stripeError(
        404,
        "invalid_request_error",
        `Unrecognized request URL (${method}: ${url.pathname}). This sandbox speaks a subset of Stripe's API: see docs/provider-sandbox.md.`,
      ),
    );
  };

  return { handle, send, parked };
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
