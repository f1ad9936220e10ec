// The refunds API of the sandbox against its PostgreSQL store. Every function takes a client that is
// already inside the caller's transaction, so a refund, its payment intent's balance, its events and
// its idempotency record commit together or not at all.
import type pg from "pg";
import type { FormObject, FormValue } from "./form";
import { newId } from "./ids";
import { inTransaction } from "./store";
import {
  chargeObject,
  eventObject,
  nowUnix,
  refundObject,
  stripeError,
  type ErrorAnswer,
  type RefundRow,
  type RefundStatus,
  type StripeRefund,
} from "./objects";

export type RefundMode = "succeed" | "pending_then_succeed" | "pending_then_fail" | "pending" | "fail";
export const REFUND_MODES: readonly RefundMode[] = [
  "succeed",
  "pending_then_succeed",
  "pending_then_fail",
  "pending",
  "fail",
];
export type Behaviour = { mode: RefundMode; delayMs: number };

export type CreateRefundParams = {
  paymentIntent: string;
  amount: number | null;
  metadata: Record<string, string>;
  reason: string | null;
};

export type Answer = { status: number; body: unknown };

const REASONS = new Set(["duplicate", "fraudulent", "requested_by_customer"]);
const ALLOWED = new Set(["payment_intent", "amount", "metadata", "reason", "expand"]);
export const FAILURE_REASON = "expired_or_canceled_card";

/** Validates the form parameters of POST /v1/refunds the way Stripe answers (400, with `param`). */
export function validateCreateRefund(form: FormObject): CreateRefundParams | ErrorAnswer {
  for (const key of Object.keys(form)) {
    if (key === "charge")
      return stripeError(
        400,
        "invalid_request_error",
        "This sandbox refunds payment intents only: use payment_intent.",
        {
          code: "parameter_unknown",
          param: "charge",
        },
      );
    if (!ALLOWED.has(key))
      return stripeError(400, "invalid_request_error", `Received unknown parameter: ${key}`, {
        code: "parameter_unknown",
        param: key,
      });
  }
  const pi = form.payment_intent;
  if (typeof pi !== "string" || pi === "") {
    return stripeError(
      400,
      "invalid_request_error",
      "One of the following params should be provided for this request: payment_intent or charge.",
      {
        code: "parameter_missing",
        param: "payment_intent",
      },
    );
  }
  let amount: number | null = null;
  if (form.amount !== undefined) {
    const raw = form.amount;
    if (typeof raw !== "string" || !/^\d{1,15}$/.test(raw))
      return stripeError(
        400,
        "invalid_request_error",
        "Invalid integer: " + (typeof raw === "string" ? raw : JSON.stringify(raw)),
        {
          code: "parameter_invalid_integer",
          param: "amount",
        },
      );
    amount = Number(raw);
    if (amount < 1)
      return stripeError(400, "invalid_request_error", "Amount must be at least 1.", {
        code: "parameter_invalid_integer",
        param: "amount",
      });
  }
  const metadata: Record<string, string> = {};
  if (form.metadata !== undefined) {
    const md: FormValue = form.metadata;
    if (typeof md === "string" || Array.isArray(md)) {
      // `metadata=` (empty) unsets metadata in Stripe; anything else is invalid.
      if (md !== "")
        return stripeError(400, "invalid_request_error", "Invalid object", {
          code: "parameter_invalid_empty",
          param: "metadata",
        });
    } else {
      const keys = Object.keys(md);
      if (keys.length > 50)
        return stripeError(400, "invalid_request_error", "You can have at most 50 metadata keys.", {
          param: "metadata",
        });
      for (const key of keys) {
        const value = md[key];
        if (typeof value !== "string")
          return stripeError(400, "invalid_request_error", `Invalid metadata value for ${key}`, {
            param: `metadata[${key}]`,
          });
        if (key.length > 40)
          return stripeError(400, "invalid_request_error", "Metadata keys can be at most 40 characters.", {
            param: `metadata[${key}]`,
          });
        if (value.length > 500)
          return stripeError(400, "invalid_request_error", "Metadata values can be at most 500 characters.", {
            param: `metadata[${key}]`,
          });
        metadata[key] = value;
      }
    }
  }
  let reason: string | null = null;
  if (form.reason !== undefined) {
    if (typeof form.reason !== "string" || !REASONS.has(form.reason))
      return stripeError(
        400,
        "invalid_request_error",
        "Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer",
        {
          code: "parameter_invalid_string",
          param: "reason",
        },
      );
    reason = form.reason;
  }
  return { paymentIntent: pi, amount, metadata, reason };
}

type PaymentIntentRow = {
  id: string;
  account: string;
  created: string;
  amount: string;
  currency: string;
  amount_refunded: string;
  charge: string;
  refund_mode: RefundMode | null;
  settle_delay_ms: number | null;
};

/**
 * Creates one refund inside the caller's transaction: locks the payment intent (so concurrent refunds
 * with different keys cannot over-refund), checks what is left, inserts the refund and its events.
 */
export async function createRefund(
  client: pg.PoolClient,
  account: string,
  params: CreateRefundParams,
  ctx: { behaviour: Behaviour; idempotencyKey: string | null },
): Promise<Answer> {
  // Another account's payment intent is answered exactly as one that does not exist (accounts.ts).
  const found = await client.query<PaymentIntentRow>(
    "SELECT * FROM payment_intents WHERE id = $1 AND account = $2 FOR UPDATE",
    [params.paymentIntent, account],
  );
  const pi = found.rows[0];
  if (!pi)
    return stripeError(404, "invalid_request_error", `No such payment_intent: '${params.paymentIntent}'`, {
      code: "resource_missing",
      param: "payment_intent",
    });
  const remaining = Number(pi.amount) - Number(pi.amount_refunded);
  if (remaining <= 0)
    return stripeError(400, "invalid_request_error", `Charge ${pi.charge} has already been refunded.`, {
      code: "charge_already_refunded",
    });
  const amount = params.amount ?? remaining;
  if (amount > remaining) {
    return stripeError(
      400,
      "invalid_request_error",
      `Refund amount (${amount} ${pi.currency}) is greater than unrefunded amount on charge (${remaining} ${pi.currency})`,
      { code: "amount_too_large", param: "amount" },
    );
  }

  const mode = pi.refund_mode ?? ctx.behaviour.mode;
  const delayMs = pi.settle_delay_ms ?? ctx.behaviour.delayMs;
  const status: RefundStatus = mode === "succeed" ? "succeeded" : mode === "fail" ? "failed" : "pending";
  const settleTo = mode === "pending_then_succeed" ? "succeeded" : mode === "pending_then_fail" ? "failed" : null;
  const inserted = await client.query<RefundRow>(
    `INSERT INTO refunds (id, payment_intent, charge, amount, currency, status, reason, failure_reason, metadata, created, settle_at, settle_to, idempotency_key, account)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, CASE WHEN $11::text IS NULL THEN NULL ELSE now() + make_interval(secs => $12::double precision / 1000) END, $11, $13, $14)
     RETURNING *`,
    [
      newId("re"),
      pi.id,
      pi.charge,
      amount,
      pi.currency,
      status,
      params.reason,
      status === "failed" ? FAILURE_REASON : null,
      JSON.stringify(params.metadata),
      nowUnix(),
      settleTo,
      delayMs,
      ctx.idempotencyKey,
      account,
    ],
  );
  const refund = refundObject(inserted.rows[0]!);
  // A failed refund gives nothing back to the customer, so it does not use up the payment intent.
  await insertEvent(client, account, "refund.created", refund, undefined, ctx.idempotencyKey);
  if (status === "failed") await insertEvent(client, account, "refund.failed", refund, undefined, ctx.idempotencyKey);
  else {
    const charged = await client.query<PaymentIntentRow>(
      "UPDATE payment_intents SET amount_refunded = amount_refunded + $2 WHERE id = $1 RETURNING *",
      [pi.id, amount],
    );
    // Like Stripe: a refund that is not failed (pending counts) refunds the charge, partly or wholly.
    await insertEvent(
      client,
      account,
      "charge.refunded",
      chargeObject(charged.rows[0]!),
      { amount_refunded: Number(pi.amount_refunded) },
      ctx.idempotencyKey,
    );
  }
  return { status: 200, body: refund };
}

export async function retrieveRefund(client: pg.Pool | pg.PoolClient, account: string, id: string): Promise<Answer> {
  const found = await client.query<RefundRow>("SELECT * FROM refunds WHERE id = $1 AND account = $2", [id, account]);
  const row = found.rows[0];
  if (!row)
    return stripeError(404, "invalid_request_error", `No such refund: '${id}'`, {
      code: "resource_missing",
      param: "id",
    });
  return { status: 200, body: refundObject(row) };
}

/** GET /v1/refunds: newest first, `limit` 1..100 (default 10), cursors `starting_after` / `ending_before`. */
export async function listRefunds(
  client: pg.Pool | pg.PoolClient,
  account: string,
  query: FormObject,
): Promise<Answer> {
  for (const key of Object.keys(query)) {
    if (!["payment_intent", "limit", "starting_after", "ending_before", "expand"].includes(key)) {
      return stripeError(400, "invalid_request_error", `Received unknown parameter: ${key}`, {
        code: "parameter_unknown",
        param: key,
      });
    }
  }
  let limit = 10;
  if (query.limit !== undefined) {
    if (
      typeof query.limit !== "string" ||
      !/^\d+$/.test(query.limit) ||
      Number(query.limit) < 1 ||
      Number(query.limit) > 100
    ) {
      return stripeError(400, "invalid_request_error", "Invalid limit: must be an integer between 1 and 100", {
        code: "parameter_invalid_integer",
        param: "limit",
      });
    }
    limit = Number(query.limit);
  }
  const pi = typeof query.payment_intent === "string" ? query.payment_intent : null;
  const after = typeof query.starting_after === "string" ? query.starting_after : null;
  const before = typeof query.ending_before === "string" ? query.ending_before : null;
  if (after && before)
    return stripeError(
      400,
      "invalid_request_error",
      "You may only specify one of these parameters: ending_before, starting_after.",
      {
        param: "starting_after",
      },
    );
  if (pi !== null) {
    const known = await client.query("SELECT 1 FROM payment_intents WHERE id = $1 AND account = $2", [pi, account]);
    if (known.rowCount === 0)
      return stripeError(404, "invalid_request_error", `No such payment_intent: '${pi}'`, {
        code: "resource_missing",
        param: "payment_intent",
      });
  }
  const cursorId = after ?? before;
  let cursor: string | null = null;
  if (cursorId) {
    const c = await client.query<{ seq: string }>("SELECT seq FROM refunds WHERE id = $1 AND account = $2", [
      cursorId,
      account,
    ]);
    if (!c.rows[0])
      return stripeError(400, "invalid_request_error", `No such refund: '${cursorId}'`, {
        code: "resource_missing",
        param: after ? "starting_after" : "ending_before",
      });
    cursor = c.rows[0].seq;
  }
  const rows = before
    ? (
        await client.query<RefundRow>(
          `SELECT * FROM (SELECT * FROM refunds WHERE account = $4 AND ($1::text IS NULL OR payment_intent = $1) AND seq > $2 ORDER BY seq ASC LIMIT $3) r ORDER BY seq DESC`,
          [pi, cursor, limit + 1, account],
        )
      ).rows
    : (
        await client.query<RefundRow>(
          `SELECT * FROM refunds WHERE account = $4 AND ($1::text IS NULL OR payment_intent = $1) AND ($2::bigint IS NULL OR seq < $2) ORDER BY seq DESC LIMIT $3`,
          [pi, cursor, limit + 1, account],
        )
      ).rows;
  const hasMore = rows.length > limit;
  const page = before ? rows.slice(rows.length > limit ? 1 : 0) : rows.slice(0, limit);
  return { status: 200, body: { object: "list", data: page.map(refundObject), has_more: hasMore, url: "/v1/refunds" } };
}

/**
 * Records one event of `account` for delivery, in the caller's transaction — only when the account has a webhook
 * endpoint (an account without one records nothing, as before accounts existed).
 */
export async function insertEvent(
  client: pg.PoolClient,
  account: string,
  type: string,
  object: unknown,
  previous?: Record<string, unknown>,
  idempotencyKey?: string | null,
): Promise<void> {
  const id = newId("evt");
  const created = nowUnix();
  const payload = JSON.stringify(eventObject({ id, type, created, object, previous, idempotencyKey }), null, 2);
  await client.query(
    `INSERT INTO events (id, account, type, payload, created, next_attempt_at)
     SELECT $1, $2, $3, $4, $5, now() WHERE EXISTS (SELECT 1 FROM accounts WHERE id = $2 AND webhook_url IS NOT NULL)`,
    [id, account, type, payload, created],
  );
}

/**
 * Moves one pending refund to its final state (inside the caller's transaction). A failed refund
 * returns its amount to the payment intent. Returns null when the refund is not pending.
 */
export async function settleRefund(
  client: pg.PoolClient,
  id: string,
  to: "succeeded" | "failed",
): Promise<StripeRefund | null> {
  const updated = await client.query<RefundRow>(
    `UPDATE refunds SET status = $2, failure_reason = CASE WHEN $2 = 'failed' THEN $3 ELSE NULL END, settle_at = NULL, settle_to = NULL
     WHERE id = $1 AND status = 'pending' RETURNING *`,
    [id, to, FAILURE_REASON],
  );
  const row = updated.rows[0];
  if (!row) return null;
  if (to === "failed")
    await client.query("UPDATE payment_intents SET amount_refunded = amount_refunded - $2 WHERE id = $1", [
      row.payment_intent,
      row.amount,
    ]);
  const refund = refundObject(row);
  await insertEvent(client, row.account, to === "failed" ? "refund.failed" : "refund.updated", refund, {
    status: "pending",
  });
  return refund;
}

/** Settles the pending refunds whose time has come, in one transaction; returns how many. */
export function settleDueRefunds(pool: pg.Pool): Promise<number> {
  return inTransaction(pool, async (client) => {
    const due = await client.query<{ id: string; settle_to: "succeeded" | "failed" }>(
      "SELECT id, settle_to FROM refunds WHERE status = 'pending' AND settle_at <= now() AND settle_to IS NOT NULL ORDER BY settle_at LIMIT 50 FOR UPDATE SKIP LOCKED",
    );
    for (const row of due.rows) await settleRefund(client, row.id, row.settle_to);
    return due.rowCount ?? 0;
  });
}
