// The shop's control endpoint (`/__control/…`, its own bearer token): set an order's fulfilment state and address
// (the "shop's back office"), read it, list the actions received, switch faults, read counters, reset.
// JSON in and out; inputs checked by hand (the shop depends on nothing but node, pg and standardwebhooks).
import type pg from "pg";
import { isObject, parseActionRequest, performAction } from "./actions";
import { FAULT_KINDS, FAULT_SCOPES, type FaultBoard, type FaultSpec } from "./faults";
import { inTransaction, ORDER_STATUSES, type ActionStatus, type OrderStatus } from "./store";

export type Answer = { status: number; body: unknown };

export type ControlState = {
  pool: pg.Pool;
  faults: FaultBoard;
  stats: Record<string, number>;
};

/** `PUT /__control/orders/:number`: creates the order (default `unfulfilled`, no address) or changes what is given. */
export type OrderInput = {
  status?: OrderStatus;
  shippingAddress?: Record<string, unknown> | null;
  /** What the store-credit quote reads (GET /store-credit/quote): the buyer's name, the total and its currency. */
  customerName?: string;
  totalMinor?: number;
  currency?: string;
};
export type FaultInput = FaultSpec;
export type ResetInput = { data?: boolean };

export type OrderView = {
  orderNumber: string;
  status: OrderStatus;
  shippingAddress: Record<string, unknown> | null;
  updatedAt: string;
};

export type ActionView = {
  idempotencyKey: string;
  kind: string;
  proposalId: string;
  request: unknown;
  status: ActionStatus;
  reference: string | null;
  message: string | null;
  /** How many POSTs carried this key (1 = never sent twice). */
  receipts: number;
  createdAt: string;
};

export type ShopCounters = {
  actions: { total: number; byStatus: Record<string, number> };
  requests: Record<string, number>;
};

const bad = (message: string, status = 400): Answer => ({ status, body: { error: "invalid_request", message } });

export async function handleControl(state: ControlState, method: string, url: URL, body: unknown): Promise<Answer> {
  const parts = url.pathname.split("/").filter(Boolean).slice(1); // drop "__control"
  const route = `${method} ${parts
    .map((p, i) => (i === 1 && parts[0] === "orders" ? ":number" : i === 1 && parts[0] === "actions" ? ":key" : p))
    .join("/")}`;
  switch (route) {
    case "GET health":
      return { status: 200, body: { ok: true } };
    case "PUT orders/:number": {
      const orderNumber = decodeURIComponent(parts[1]!);
      if (orderNumber.length === 0 || orderNumber.length > 255) return bad("the order number is 1 to 255 characters");
      const input = parseOrderInput(body);
      if ("error" in input) return bad(input.error);
      const given = input.shippingAddress !== undefined;
      const row = await state.pool.query<OrderRow>(
        `INSERT INTO shop_orders (order_number, status, shipping_address, customer_name, total_minor, currency)
         VALUES ($1, COALESCE($2::text, 'unfulfilled'), $3::jsonb, $5::text, $6::integer, $7::text)
         ON CONFLICT (order_number) DO UPDATE SET
           status = COALESCE($2::text, shop_orders.status),
           shipping_address = CASE WHEN $4::boolean THEN EXCLUDED.shipping_address ELSE shop_orders.shipping_address END,
           customer_name = COALESCE($5::text, shop_orders.customer_name),
           total_minor = COALESCE($6::integer, shop_orders.total_minor),
           currency = COALESCE($7::text, shop_orders.currency),
           updated_at = now()
         RETURNING *`,
        [
          orderNumber,
          input.status ?? null,
          given ? JSON.stringify(input.shippingAddress) : null,
          given,
          input.customerName ?? null,
          input.totalMinor ?? null,
          input.currency ?? null,
        ],
      );
      return { status: 200, body: orderView(row.rows[0]!) };
    }
    case "GET orders/:number": {
      const orderNumber = decodeURIComponent(parts[1]!);
      const row = await state.pool.query<OrderRow>("SELECT * FROM shop_orders WHERE order_number = $1", [orderNumber]);
      return row.rows[0]
        ? { status: 200, body: orderView(row.rows[0]) }
        : { status: 404, body: { error: "not_found", message: `No such order: '${orderNumber}'` } };
    }
    case "GET actions": {
      const key = url.searchParams.get("idempotencyKey");
      const order = url.searchParams.get("orderNumber");
      const rows = await state.pool.query<ActionRow>(
        `SELECT * FROM shop_actions
          WHERE ($1::text IS NULL OR idempotency_key = $1) AND ($2::text IS NULL OR request #>> '{subject,ref}' = $2)
          ORDER BY created_at DESC, idempotency_key LIMIT 100`,
        [key, order],
      );
      return { status: 200, body: { data: rows.rows.map(actionView) } };
    }
    case "POST actions/:key/complete": {
      // The shop finishes an action it answered `pending` (answer_pending): done now, once; its GET says so.
      const key = decodeURIComponent(parts[1]!);
      return inTransaction(state.pool, async (client): Promise<Answer> => {
        const row = await client.query<ActionRow>("SELECT * FROM shop_actions WHERE idempotency_key = $1 FOR UPDATE", [
          key,
        ]);
        const action = row.rows[0];
        if (!action) return { status: 404, body: { error: "not_found", message: `No action with key '${key}'` } };
        if (action.status !== "pending")
          return { status: 409, body: { error: "not_pending", message: `The action is already ${action.status}` } };
        const request = parseActionRequest(action.request);
        if ("error" in request) return bad(request.error);
        const answer = await performAction(client, request);
        const done = await client.query<ActionRow>(
          "UPDATE shop_actions SET status = $2, reference = $3, message = $4 WHERE idempotency_key = $1 RETURNING *",
          [key, answer.status, answer.reference, answer.message ?? null],
        );
        return { status: 200, body: actionView(done.rows[0]!) };
      });
    }
    case "POST faults": {
      const input = parseFaultInput(body);
      if ("error" in input) return bad(input.error);
      return { status: 200, body: state.faults.add(input) };
    }
    case "GET faults":
      return { status: 200, body: { data: state.faults.list() } };
    case "DELETE faults":
      state.faults.clear();
      return { status: 200, body: { data: [] } };
    case "GET counters": {
      const rows = await state.pool.query<{ status: string; n: string }>(
        "SELECT status, count(*) AS n FROM shop_actions GROUP BY status",
      );
      const byStatus = Object.fromEntries(rows.rows.map((r) => [r.status, Number(r.n)]));
      const total = Object.values(byStatus).reduce((a, b) => a + b, 0);
      const counters: ShopCounters = { actions: { total, byStatus }, requests: { ...state.stats } };
      return { status: 200, body: counters };
    }
    case "POST reset": {
      if (body !== undefined && (!isObject(body) || !onlyKeys(body, ["data"]) || !optional(body.data, "boolean")))
        return bad("reset takes { data?: boolean }");
      state.faults.clear();
      if (isObject(body) && body.data === true)
        await state.pool.query(
          "TRUNCATE shop_actions, shop_orders, shop_replacement_orders, shop_message_batches, shop_store_credits",
        );
      for (const key of Object.keys(state.stats)) state.stats[key] = 0;
      return { status: 200, body: { ok: true } };
    }
    default:
      return {
        status: 404,
        body: { error: "unknown_route", message: `Unknown control route: ${method} ${url.pathname}` },
      };
  }
}

function parseOrderInput(body: unknown): OrderInput | { error: string } {
  if (body === undefined) return {};
  if (!isObject(body) || !onlyKeys(body, ["status", "shippingAddress", "customerName", "totalMinor", "currency"]))
    return { error: "an order takes { status?, shippingAddress?, customerName?, totalMinor?, currency? }" };
  const { status, shippingAddress, customerName, totalMinor, currency } = body;
  if (customerName !== undefined && (typeof customerName !== "string" || customerName.length > 200))
    return { error: "customerName is a string of at most 200 characters" };
  if (totalMinor !== undefined && (!Number.isSafeInteger(totalMinor) || (totalMinor as number) < 0))
    return { error: "totalMinor is a non-negative integer" };
  if (currency !== undefined && (typeof currency !== "string" || !/^[A-Z]{3}$/.test(currency)))
    return { error: "currency is an ISO 4217 code" };
  if (status !== undefined && !ORDER_STATUSES.includes(status as OrderStatus))
    return { error: `status is one of ${ORDER_STATUSES.join(", ")}` };
  if (shippingAddress !== undefined && shippingAddress !== null && !isObject(shippingAddress))
    return { error: "shippingAddress is an object or null" };
  return {
    status: status as OrderStatus | undefined,
    shippingAddress,
    customerName: customerName,
    totalMinor: totalMinor as number | undefined,
    currency: currency,
  };
}

function parseFaultInput(body: unknown): FaultSpec | { error: string } {
  const shape = "a fault is { kind, once?, orderNumber?, on?, latencyMs? }";
  if (!isObject(body) || !onlyKeys(body, ["kind", "once", "orderNumber", "on", "latencyMs"])) return { error: shape };
  const { kind, once, orderNumber, on, latencyMs } = body;
  if (!FAULT_KINDS.includes(kind as FaultSpec["kind"])) return { error: `kind is one of ${FAULT_KINDS.join(", ")}` };
  if (on !== undefined && !FAULT_SCOPES.includes(on as NonNullable<FaultSpec["on"]>))
    return { error: `on is one of ${FAULT_SCOPES.join(", ")}` };
  if (!optional(once, "boolean")) return { error: "once is a boolean" };
  if (orderNumber !== undefined && (typeof orderNumber !== "string" || orderNumber.length === 0))
    return { error: "orderNumber is a non-empty string" };
  if (
    latencyMs !== undefined &&
    (typeof latencyMs !== "number" || !Number.isInteger(latencyMs) || latencyMs < 0 || latencyMs > 600_000)
  )
    return { error: "latencyMs is an integer from 0 to 600000" };
  return {
    kind: kind as FaultSpec["kind"],
    once: once as boolean | undefined,
    orderNumber,
    on: on as FaultSpec["on"],
    latencyMs,
  };
}

const onlyKeys = (value: Record<string, unknown>, allowed: string[]) =>
  Object.keys(value).every((k) => allowed.includes(k));
const optional = (value: unknown, type: "boolean" | "string") => value === undefined || typeof value === type;

type OrderRow = {
  order_number: string;
  status: OrderStatus;
  shipping_address: Record<string, unknown> | null;
  customer_name: string | null;
  total_minor: number | null;
  currency: string | null;
  updated_at: Date;
};

type ActionRow = {
  idempotency_key: string;
  kind: string;
  proposal_id: string;
  request: unknown;
  status: ActionStatus;
  reference: string | null;
  message: string | null;
  receipts: number;
  created_at: Date;
};

/**
 * `GET /store-credit/quote?order=N` (the derive request of the declared issue_store_credit action): the credit the
 * shop would issue for the order, computed from its own data — the order's total, in its currency — and its buyer.
 * 404 for an order it does not know or without a total.
 */
export async function storeCreditQuote(pool: pg.Pool, orderNumber: string): Promise<Answer> {
  const { rows } = await pool.query<OrderRow>("SELECT * FROM shop_orders WHERE order_number = $1", [orderNumber]);
  const order = rows[0];
  if (!order || order.total_minor === null || order.currency === null || order.customer_name === null)
    return { status: 404, body: { error: "not_found", message: `No quote for order '${orderNumber}'` } };
  return {
    status: 200,
    body: {
      order: order.order_number,
      customer: { name: order.customer_name },
      credit: { amount_minor: order.total_minor, currency: order.currency },
    },
  };
}

function orderView(row: OrderRow): OrderView {
  return {
    orderNumber: row.order_number,
    status: row.status,
    shippingAddress: row.shipping_address,
    updatedAt: row.updated_at.toISOString(),
  };
}

function actionView(row: ActionRow): ActionView {
  return {
    idempotencyKey: row.idempotency_key,
    kind: row.kind,
    proposalId: row.proposal_id,
    request: row.request,
    status: row.status,
    reference: row.reference,
    message: row.message,
    receipts: row.receipts,
    createdAt: row.created_at.toISOString(),
  };
}
