// The shop's HTTP routes: the action endpoint (`POST /actions`, `GET /actions/{idempotency_key}`, both signed as
// Standard Webhooks with the shop's signing secret) and the control endpoint behind its own token. Pure request
// handling; the process around it is server.ts, the kinds are actions.ts. See docs/shop-sandbox.md.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type pg from "pg";
import type { Webhook } from "standardwebhooks";
import { newReference, parseActionRequest, performAction, type ActionAnswer } from "./actions";
import { handleControl, storeCreditQuote, type Answer, type ControlState } from "./control";
import type { FaultBoard, FaultMatch } from "./faults";
import { inTransaction, type ActionStatus } from "./store";

const MAX_BODY = 64 * 1024;

export type RoutesContext = {
  pool: pg.Pool;
  faults: FaultBoard;
  /** The shop's signing secret, as a verifier (the `standardwebhooks` package). */
  webhook: Webhook;
  controlToken: string;
  control: ControlState;
  stats: Record<string, number>;
};

type StoredAnswer = { status: ActionStatus; reference: string | null; message: string | null };

export function shopRoutes(ctx: RoutesContext) {
  const { pool, faults, stats } = ctx;
  /** Requests held open on purpose (accept_then_hang); destroyed at shutdown. */
  const parked = new Set<ServerResponse>();
  const count = (name: string) => (stats[name] = (stats[name] ?? 0) + 1);

  const send = (res: ServerResponse, answer: Answer, headers: Record<string, string> = {}) => {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(answer.status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(answer.body));
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
      count("hung");
      parked.add(res);
      res.on("close", () => parked.delete(res));
      return;
    }
    if (fault.action === "drop_after_commit") {
      count("dropped");
      req.socket.destroy();
      return;
    }
    send(res, answer, headers);
  };

  /**
   * Standard Webhooks: `webhook-signature` must hold `v1,<base64 HMAC-SHA256(secret, "<webhook-id>.<webhook-timestamp>.<raw body>")>`
   * and the timestamp be within 5 minutes of now. A GET signs the idempotency key it asks about. Null when it does, else the 401.
   */
  const refusedSignature = (req: IncomingMessage, raw: string): Answer | null => {
    try {
      ctx.webhook.verify(
        raw,
        {
          "webhook-id": headerValue(req, "webhook-id"),
          "webhook-timestamp": headerValue(req, "webhook-timestamp"),
          "webhook-signature": headerValue(req, "webhook-signature"),
        },
        { jsonParse: false },
      );
      return null;
    } catch (error) {
      count("unauthorized");
      return {
        status: 401,
        body: { error: "invalid_signature", message: error instanceof Error ? error.message : "invalid signature" },
      };
    }
  };

  const createAction = async (req: IncomingMessage, res: ServerResponse, raw: string) => {
    count("actions");
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return send(res, invalid("the body is not JSON"));
    }
    const request = parseActionRequest(json);
    if ("error" in request) return send(res, invalid(request.error));
    const fault = faults.match({ endpoint: "create", orderNumber: request.subject.ref });
    if (fault.action === "fail_5xx") {
      if (fault.latencyMs > 0) await sleep(fault.latencyMs);
      count("failed5xx");
      return send(res, {
        status: 500,
        body: { error: "server_error", message: "sandbox fault fail_5xx: nothing was done, nothing stored" },
      });
    }
    type Outcome = { answer: Answer; replayed: boolean };
    const outcome = await inTransaction(pool, async (client, rollback): Promise<Outcome> => {
      // The key's row first: a concurrent request with the same key waits here until this transaction ends, then
      // finds the committed row (or, after a rollback, claims the key itself). One key, one effect.
      const claimed = await client.query(
        `INSERT INTO shop_actions (idempotency_key, kind, proposal_id, request, status)
         VALUES ($1, $2, $3, $4::jsonb, 'pending') ON CONFLICT (idempotency_key) DO NOTHING`,
        [request.idempotency_key, request.kind, request.proposal_id, JSON.stringify(request)],
      );
      if (fault.latencyMs > 0) await sleep(fault.latencyMs);
      if (claimed.rowCount === 0) {
        rollback();
        const stored = await client.query<StoredAnswer & { same: boolean }>(
          "SELECT status, reference, message, request = $2::jsonb AS same FROM shop_actions WHERE idempotency_key = $1",
          [request.idempotency_key, JSON.stringify(request)],
        );
        const row = stored.rows[0]!;
        if (!row.same) {
          count("idempotencyMismatches");
          return {
            answer: {
              status: 409,
              body: {
                error: "idempotency_key_reused",
                message: `idempotency_key '${request.idempotency_key}' was first used with another request; nothing was done`,
              },
            },
            replayed: false,
          };
        }
        count("replayed");
        return { answer: { status: 200, body: answerOf(row) }, replayed: true };
      }
      // answer_pending: queued at the shop, nothing done until the control endpoint completes it.
      const answer: ActionAnswer =
        fault.action === "answer_pending"
          ? { status: "pending", reference: newReference("que"), message: "queued at the shop" }
          : await performAction(client, request);
      if (fault.action === "answer_pending") count("deferred");
      await client.query(
        "UPDATE shop_actions SET status = $2, reference = $3, message = $4 WHERE idempotency_key = $1",
        [request.idempotency_key, answer.status, answer.reference, answer.message ?? null],
      );
      return { answer: { status: 200, body: answer }, replayed: false };
    });
    // Every POST of a key the shop already held (a replay or a mismatch) is one more receipt of it.
    if (outcome.replayed || outcome.answer.status === 409)
      await pool.query("UPDATE shop_actions SET receipts = receipts + 1 WHERE idempotency_key = $1", [
        request.idempotency_key,
      ]);
    if (outcome.answer.status !== 200) return send(res, outcome.answer);
    finish(req, res, fault, outcome.answer, outcome.replayed ? { "idempotent-replayed": "true" } : {});
  };

  const readAction = async (req: IncomingMessage, res: ServerResponse, key: string) => {
    count("reads");
    const lookup = () =>
      pool.query<StoredAnswer & { order_number: string | null }>(
        "SELECT status, reference, message, request #>> '{subject,ref}' AS order_number FROM shop_actions WHERE idempotency_key = $1",
        [key],
      );
    let stored = await lookup();
    const fault = faults.match({ endpoint: "read", orderNumber: stored.rows[0]?.order_number ?? null });
    if (fault.latencyMs > 0) {
      await sleep(fault.latencyMs);
      stored = await lookup();
    }
    if (fault.action === "fail_5xx") {
      count("failed5xx");
      return send(res, { status: 500, body: { error: "server_error", message: "sandbox fault fail_5xx" } });
    }
    const row = stored.rows[0];
    finish(req, res, fault, row ? { status: 200, body: answerOf(row) } : { status: 404, body: { error: "not_found" } });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://shop");
    const method = req.method ?? "GET";
    const raw = await readBody(req);
    if (raw === null) return send(res, { status: 413, body: { error: "body_too_large", message: "at most 64 KiB" } });

    if (url.pathname.startsWith("/__control/")) {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
      if (url.pathname !== "/__control/health" && !safeEqual(token, ctx.controlToken))
        return send(res, { status: 401, body: { error: "unauthorized", message: "Invalid control token." } });
      let body: unknown = undefined;
      if (raw.length > 0) {
        try {
          body = JSON.parse(raw);
        } catch {
          return send(res, invalid("The control endpoint takes JSON."));
        }
      }
      return send(res, await handleControl(ctx.control, method, url, body));
    }

    if (url.pathname === "/actions") {
      if (method !== "POST") return send(res, notAllowed(method, "POST"), { allow: "POST" });
      return refused(req, res, raw) ? undefined : createAction(req, res, raw);
    }
    if (url.pathname === "/store-credit/quote") {
      if (method !== "GET") return send(res, notAllowed(method, "GET"), { allow: "GET" });
      // The gateway's derive request (an admin-declared action): signed over the path and query it asks for.
      if (refused(req, res, req.url ?? "")) return;
      count("quotes");
      return send(res, await storeCreditQuote(pool, url.searchParams.get("order") ?? ""));
    }
    const keyInPath = /^\/actions\/([^/]+)$/.exec(url.pathname)?.[1];
    if (keyInPath !== undefined) {
      if (method !== "GET") return send(res, notAllowed(method, "GET"), { allow: "GET" });
      let key: string;
      try {
        key = decodeURIComponent(keyInPath);
      } catch {
        return send(res, invalid("the idempotency key in the path is not valid percent-encoding"));
      }
      // A GET has no body: it signs the key it asks about, so a captured signature reads that key's answer only.
      if (refused(req, res, key)) return;
      return readAction(req, res, key);
    }
    return send(res, {
      status: 404,
      body: {
        error: "unknown_route",
        message: `${method} ${url.pathname}: the shop answers POST /actions, GET /actions/{idempotency_key} and GET /store-credit/quote (docs/shop-sandbox.md)`,
      },
    });
  };

  /** Sends the 401 when the signature over `signedContent` (a POST's raw body, a GET's key) does not hold; true when it did. */
  const refused = (req: IncomingMessage, res: ServerResponse, signedContent: string): boolean => {
    const answer = refusedSignature(req, signedContent);
    if (answer) send(res, answer);
    return answer !== null;
  };

  return { handle, send, parked };
}

function answerOf(row: StoredAnswer): ActionAnswer {
  return {
    status: row.status,
    reference: row.reference,
    ...(row.message === null ? {} : { message: row.message }),
  };
}

const invalid = (message: string): Answer => ({ status: 400, body: { error: "invalid_request", message } });
const notAllowed = (method: string, allowed: string): Answer => ({
  status: 405,
  body: { error: "method_not_allowed", message: `${method} is not allowed here; use ${allowed}` },
});

function headerValue(req: IncomingMessage, name: string): string {
  const v = req.headers[name];
  if (v === undefined) return "";
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
