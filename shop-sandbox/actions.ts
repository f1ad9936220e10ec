// What the shop does with an action: the request body's shape (parseActionRequest) and the kinds it carries out
// (performAction), each inside the transaction that also stores the answer under the idempotency key (routes.ts).
// A new kind is one handler in KINDS; any other kind is answered `failed` / "unsupported kind", never an error.
import { randomBytes } from "node:crypto";
import type pg from "pg";
import type { ActionStatus, OrderStatus } from "./store";

export type ActionRequest = {
  kind: string;
  proposal_id: string;
  idempotency_key: string;
  subject: { type: string; ref: string };
  params: Record<string, unknown>;
};

/** The endpoint's answer (200): `reference` is the shop's id of what it did, null when it did nothing. */
export type ActionAnswer = { status: ActionStatus; reference: string | null; message?: string };

const FIELDS = ["kind", "proposal_id", "idempotency_key", "subject", "params"];

/** The body of `POST /actions`, exactly these five fields, or what is wrong with it (400). */
export function parseActionRequest(value: unknown): ActionRequest | { error: string } {
  if (!isObject(value)) return { error: "the body must be a JSON object" };
  const extra = Object.keys(value).filter((k) => !FIELDS.includes(k));
  if (extra.length > 0) return { error: `unknown field(s): ${extra.join(", ")}` };
  const { kind, proposal_id, idempotency_key, subject, params } = value;
  if (!isText(kind, 100)) return { error: "kind must be a string of 1 to 100 characters" };
  if (!isText(proposal_id, 255)) return { error: "proposal_id must be a string of 1 to 255 characters" };
  if (!isText(idempotency_key, 255)) return { error: "idempotency_key must be a string of 1 to 255 characters" };
  if (
    !isObject(subject) ||
    Object.keys(subject).length !== 2 ||
    !isText(subject.type, 100) ||
    !isText(subject.ref, 255)
  ) {
    return { error: "subject must be { type, ref }, two strings" };
  }
  if (!isObject(params)) return { error: "params must be a JSON object" };
  return { kind, proposal_id, idempotency_key, subject: { type: subject.type, ref: subject.ref }, params };
}

type KindHandler = (client: pg.PoolClient, request: ActionRequest) => Promise<ActionAnswer>;

const KINDS: Record<string, KindHandler> = {
  /** subject: the order; refused once it has shipped (or been delivered), or when it is already cancelled. */
  cancel_order: async (client, request) => {
    const order = await lockOrder(client, request.subject);
    if ("refused" in order) return order.refused;
    if (order.status !== "unfulfilled") {
      return failed(order.status === "cancelled" ? "order_already_cancelled" : `order_${order.status}`);
    }
    await client.query("UPDATE shop_orders SET status = 'cancelled', updated_at = now() WHERE order_number = $1", [
      request.subject.ref,
    ]);
    return { status: "succeeded", reference: newReference("cxl") };
  },
  /** subject: the order; params.after: the new address (stored as given). Refused once shipped, or when cancelled. */
  change_shipping_address: async (client, request) => {
    const after = request.params.after;
    if (!isObject(after)) return failed("invalid_address");
    const order = await lockOrder(client, request.subject);
    if ("refused" in order) return order.refused;
    if (order.status !== "unfulfilled") return failed(`order_${order.status}`);
    await client.query("UPDATE shop_orders SET shipping_address = $2, updated_at = now() WHERE order_number = $1", [
      request.subject.ref,
      JSON.stringify(after),
    ]);
    return { status: "succeeded", reference: newReference("adr") };
  },
  /** subject: the customer (the shop's id); params: {field: email | phone, after}. Records the customer's new value. */
  update_customer_contact: async (client, request) => {
    if (request.subject.type !== "customer") return failed("unsupported subject type");
    const { field, after } = request.params;
    if (field !== "email" && field !== "phone") return failed("unsupported field");
    if (!isText(after, 320)) return failed("invalid_value");
    await client.query(
      `INSERT INTO shop_customer_contacts (customer_ref, field, value) VALUES ($1, $2, $3)
       ON CONFLICT (customer_ref, field) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [request.subject.ref, field, after],
    );
    return { status: "succeeded", reference: newReference("cnt") };
  },
  /**
   * subject: the original order; params: {items: [{sku, name, quantity}], price: {minor: 0, currency},
   * shippingAddress, reason}. Refused unless the original's goods were delivered (or shipped: lost in transit), and
   * for anything but a free replacement. Creates the replacement order (unfulfilled, at the given address) and answers
   * its number, `<original>-R<n>`, as the reference.
   */
  create_order: async (client, request) => {
    const { items, price, shippingAddress, reason } = request.params;
    if (!Array.isArray(items) || items.length === 0 || !items.every(isReplacementItem)) return failed("invalid_items");
    if (!isObject(price) || price.minor !== 0) return failed("not_free_of_charge");
    if (!isObject(shippingAddress)) return failed("invalid_address");
    if (!isText(reason, 100)) return failed("invalid_reason");
    const order = await lockOrder(client, request.subject);
    if ("refused" in order) return order.refused;
    if (order.status !== "delivered" && order.status !== "shipped") return failed(`order_${order.status}`);
    // Under the original's row lock: two replacements of one order are numbered one after the other.
    const { rows } = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM shop_replacement_orders WHERE original_number = $1",
      [request.subject.ref],
    );
    const number = `${request.subject.ref}-R${rows[0]!.n + 1}`;
    await client.query(
      "INSERT INTO shop_orders (order_number, status, shipping_address) VALUES ($1, 'unfulfilled', $2)",
      [number, JSON.stringify(shippingAddress)],
    );
    await client.query(
      "INSERT INTO shop_replacement_orders (order_number, original_number, items, reason) VALUES ($1, $2, $3, $4)",
      [number, request.subject.ref, JSON.stringify(items), reason],
    );
    return { status: "succeeded", reference: number };
  },
  /**
   * One batch of a bulk message. subject: the segment (`{type: "segment", ref: <slug>}`); params: {batch, recipients:
   * [customer id…] (1–1,000), channel: email | sms, text (1–1,000 characters), window, segment}. The shop records the
   * batch under its key (shop_message_batches) and delivers it within the window (the sandbox delivers nothing).
   */
  send_bulk_message: async (client, request) => {
    if (request.subject.type !== "segment") return failed("unsupported subject type");
    const { batch, recipients, channel, text } = request.params;
    if (!Number.isSafeInteger(batch) || (batch as number) < 0) return failed("invalid_batch");
    if (
      !Array.isArray(recipients) ||
      recipients.length === 0 ||
      recipients.length > 1_000 ||
      !recipients.every((r) => isText(r, 255))
    )
      return failed("invalid_recipients");
    if (channel !== "email" && channel !== "sms") return failed("unsupported channel");
    if (!isText(text, 1_000)) return failed("invalid_text");
    await client.query(
      `INSERT INTO shop_message_batches (idempotency_key, proposal_id, segment, batch, channel, recipients, text)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)`,
      [
        request.idempotency_key,
        request.proposal_id,
        request.subject.ref,
        batch,
        channel,
        JSON.stringify(recipients),
        text,
      ],
    );
    return { status: "succeeded", reference: newReference("msg") };
  },
  /**
   * An admin-declared action (the gateway's declared_action kind); params.action names what the admin declared. The
   * shop knows one: issue_store_credit, params {fields: {amount, currency}, input: {order_id}} — recorded once per
   * idempotency key (shop_store_credits).
   */
  declared_action: async (client, request) => {
    const { action, input, fields } = request.params;
    if (action !== "issue_store_credit") return failed("unsupported declared action");
    if (!isObject(input) || !isObject(fields)) return failed("invalid_params");
    const { order_id } = input;
    const { amount, currency } = fields;
    if (!isText(order_id, 255)) return failed("invalid_order");
    if (!Number.isSafeInteger(amount) || (amount as number) < 0) return failed("invalid_amount");
    if (!isText(currency, 3)) return failed("invalid_currency");
    await client.query(
      "INSERT INTO shop_store_credits (idempotency_key, order_number, amount_minor, currency) VALUES ($1, $2, $3, $4)",
      [request.idempotency_key, order_id, amount, currency],
    );
    return { status: "succeeded", reference: newReference("crd") };
  },
};

export const SUPPORTED_KINDS = Object.keys(KINDS);

/** Carries out the action on `client` (inside the caller's transaction) and says how it went. */
export async function performAction(client: pg.PoolClient, request: ActionRequest): Promise<ActionAnswer> {
  const handler = Object.hasOwn(KINDS, request.kind) ? KINDS[request.kind] : undefined;
  if (!handler) return failed("unsupported kind");
  return handler(client, request);
}

/** The order named by the subject, row-locked until the transaction ends (two actions on it take turns). */
async function lockOrder(
  client: pg.PoolClient,
  subject: ActionRequest["subject"],
): Promise<{ status: OrderStatus } | { refused: ActionAnswer }> {
  if (subject.type !== "order") return { refused: failed("unsupported subject type") };
  const row = await client.query<{ status: OrderStatus }>(
    "SELECT status FROM shop_orders WHERE order_number = $1 FOR UPDATE",
    [subject.ref],
  );
  return row.rows[0] ? { status: row.rows[0].status } : { refused: failed("order_not_found") };
}

const failed = (message: string): ActionAnswer => ({ status: "failed", reference: null, message });

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `<prefix>_` and 24 random base-62 characters (`cxl_…`, `adr_…`). */
export function newReference(prefix: string, length = 24): string {
  let out = "";
  while (out.length < length) {
    // Rejection sampling keeps the characters uniform (248 = 4 × 62).
    for (const b of randomBytes(length * 2)) if (b < 248 && out.length < length) out += ALPHABET[b % 62];
  }
  return `${prefix}_${out}`;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isReplacementItem(value: unknown): boolean {
  return (
    isObject(value) &&
    isText(value.sku, 100) &&
    isText(value.name, 500) &&
    Number.isSafeInteger(value.quantity) &&
    (value.quantity as number) > 0
  );
}

function isText(value: unknown, max: number): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= max;
}
