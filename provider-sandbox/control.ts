// The sandbox's control endpoint (`/__control/…`, its own bearer token): create payment intents,
// register accounts, refund or dispute "from the dashboard", switch faults and refund behaviour, read counters,
// settle a pending refund, reset. JSON in and out.
import type pg from "pg";
import { z } from "zod";
import { DEFAULT_ACCOUNT, listAccounts, registerAccount, registerAccountInput } from "./accounts";
import type { FaultBoard } from "./faults";
import { newId } from "./ids";
import { disputeObject, nowUnix } from "./objects";
import { createRefund, insertEvent, REFUND_MODES, settleRefund, type Answer, type Behaviour } from "./refunds";
import { inTransaction } from "./store";

export const createPaymentIntentInput = z.strictObject({
  /** The account that owns it (accounts.ts); default: the process's own account. */
  account: z.string().min(1).optional(),
  id: z
    .string()
    .regex(/^pi_[A-Za-z0-9_]{1,250}$/)
    .optional(),
  amount: z.number().int().positive().max(99_999_999_999),
  currency: z
    .string()
    .regex(/^[a-zA-Z]{3}$/)
    .transform((c) => c.toLowerCase()),
  /** Already refunded before the sandbox knew it (demo orders that were partly refunded). */
  amountRefunded: z.number().int().nonnegative().optional(),
  refundMode: z.enum(REFUND_MODES).optional(),
  settleDelayMs: z.number().int().nonnegative().max(86_400_000).optional(),
});
export type CreatePaymentIntentInput = z.input<typeof createPaymentIntentInput>;

export const faultInput = z.strictObject({
  kind: z.enum(["latency", "fail_5xx", "accept_then_hang", "drop_after_commit"]),
  once: z.boolean().optional(),
  paymentIntent: z.string().min(1).optional(),
  on: z.enum(["create", "read", "any"]).optional(),
  latencyMs: z.number().int().nonnegative().max(600_000).optional(),
});
export type FaultInput = z.input<typeof faultInput>;

export const behaviourInput = z.strictObject({
  /** Without it: the global default for payment intents that have no behaviour of their own. */
  paymentIntent: z.string().min(1).optional(),
  mode: z.enum(REFUND_MODES),
  delayMs: z.number().int().nonnegative().max(86_400_000).optional(),
});
export type BehaviourInput = z.input<typeof behaviourInput>;

export const settleInput = z.strictObject({ status: z.enum(["succeeded", "failed"]) });

/** A refund made at the provider by someone else (the shop's dashboard, another integration), in the payment intent's account. */
export const dashboardRefundInput = z.strictObject({
  paymentIntent: z.string().min(1),
  /** Without it: all that is left. */
  amount: z.number().int().positive().max(99_999_999_999).optional(),
  reason: z.enum(["duplicate", "fraudulent", "requested_by_customer"]).optional(),
  metadata: z.record(z.string().max(40), z.string().max(500)).optional(),
});
export type DashboardRefundInput = z.input<typeof dashboardRefundInput>;

/** A dispute the card holder's bank opens on the payment intent's charge. */
export const disputeInput = z.strictObject({
  paymentIntent: z.string().min(1),
  /** Without it: the whole charge. */
  amount: z.number().int().positive().max(99_999_999_999).optional(),
  reason: z
    .enum([
      "fraudulent",
      "duplicate",
      "product_not_received",
      "product_unacceptable",
      "subscription_canceled",
      "general",
    ])
    .optional(),
});
export type DisputeInput = z.input<typeof disputeInput>;
export const resetInput = z.strictObject({ data: z.boolean().optional() }).optional();

export type ControlState = {
  pool: pg.Pool;
  /** The default account's keys (the --api-key flags): no registered account may take one. */
  defaultKeys: readonly string[];
  faults: FaultBoard;
  behaviour: Behaviour;
  setBehaviour: (b: Behaviour) => Promise<void>;
  stats: Record<string, number>;
};

const bad = (message: string, status = 400): Answer => ({
  status,
  body: { error: { type: "invalid_request_error", message } },
});

export async function handleControl(state: ControlState, method: string, path: string, body: unknown): Promise<Answer> {
  const parts = path.split("/").filter(Boolean).slice(1); // drop "__control"
  const route = `${method} ${parts.map((p, i) => (i === 1 && parts[0] !== "faults" ? ":id" : p)).join("/")}`;
  switch (route) {
    case "GET health":
      return { status: 200, body: { ok: true } };
    case "POST payment_intents": {
      const input = createPaymentIntentInput.safeParse(body);
      if (!input.success) return bad(z.prettifyError(input.error));
      return createPaymentIntent(state.pool, input.data);
    }
    case "GET payment_intents/:id": {
      const pi = await state.pool.query<PaymentIntentDbRow>("SELECT * FROM payment_intents WHERE id = $1", [parts[1]]);
      return pi.rows[0]
        ? { status: 200, body: paymentIntentView(pi.rows[0]) }
        : bad(`No such payment_intent: '${parts[1]}'`, 404);
    }
    case "POST accounts": {
      const input = registerAccountInput.safeParse(body);
      if (!input.success) return bad(z.prettifyError(input.error));
      const registered = await registerAccount(state.pool, state.defaultKeys, input.data);
      return registered.ok ? { status: 200, body: registered.account } : bad(registered.message, registered.status);
    }
    case "GET accounts":
      return { status: 200, body: { data: await listAccounts(state.pool) } };
    case "POST refunds": {
      const input = dashboardRefundInput.safeParse(body);
      if (!input.success) return bad(z.prettifyError(input.error));
      const { paymentIntent, amount, reason, metadata } = input.data;
      return inTransaction(state.pool, async (client) => {
        const owner = await client.query<{ account: string }>("SELECT account FROM payment_intents WHERE id = $1", [
          paymentIntent,
        ]);
        if (!owner.rows[0]) return bad(`No such payment_intent: '${paymentIntent}'`, 404);
        return createRefund(
          client,
          owner.rows[0].account,
          { paymentIntent, amount: amount ?? null, reason: reason ?? null, metadata: metadata ?? {} },
          { behaviour: state.behaviour, idempotencyKey: null },
        );
      });
    }
    case "POST disputes": {
      const input = disputeInput.safeParse(body);
      if (!input.success) return bad(z.prettifyError(input.error));
      return inTransaction(state.pool, async (client) => {
        const pi = await client.query<PaymentIntentDbRow>("SELECT * FROM payment_intents WHERE id = $1", [
          input.data.paymentIntent,
        ]);
        const row = pi.rows[0];
        if (!row) return bad(`No such payment_intent: '${input.data.paymentIntent}'`, 404);
        if ((input.data.amount ?? 0) > Number(row.amount)) return bad("a dispute cannot be larger than the charge");
        const dispute = disputeObject({
          id: newId("dp"),
          charge: row.charge,
          paymentIntent: row.id,
          amount: input.data.amount ?? Number(row.amount),
          currency: row.currency,
          reason: input.data.reason ?? "general",
          created: nowUnix(),
        });
        await insertEvent(client, row.account, "charge.dispute.created", dispute);
        return { status: 200, body: dispute };
      });
    }
    case "POST faults": {
      const input = faultInput.safeParse(body);
      if (!input.success) return bad(z.prettifyError(input.error));
      return { status: 200, body: state.faults.add(input.data) };
    }
    case "GET faults":
      return { status: 200, body: { data: state.faults.list() } };
    case "DELETE faults":
      state.faults.clear();
      return { status: 200, body: { data: [] } };
    case "POST behaviour": {
      const input = behaviourInput.safeParse(body);
      if (!input.success) return bad(z.prettifyError(input.error));
      const { paymentIntent, mode, delayMs = 500 } = input.data;
      if (!paymentIntent) {
        await state.setBehaviour({ mode, delayMs });
        return { status: 200, body: { mode, delayMs } };
      }
      const updated = await state.pool.query<PaymentIntentDbRow>(
        "UPDATE payment_intents SET refund_mode = $2, settle_delay_ms = $3 WHERE id = $1 RETURNING *",
        [paymentIntent, mode, delayMs],
      );
      return updated.rows[0]
        ? { status: 200, body: paymentIntentView(updated.rows[0]) }
        : bad(`No such payment_intent: '${paymentIntent}'`, 404);
    }
    case "POST refunds/:id/settle": {
      const input = settleInput.safeParse(body);
      if (!input.success) return bad(z.prettifyError(input.error));
      const refund = await inTransaction(state.pool, (client) => settleRefund(client, parts[1]!, input.data.status));
      return refund ? { status: 200, body: refund } : bad(`Refund '${parts[1]}' does not exist or is not pending`, 409);
    }
    case "GET counters":
      return { status: 200, body: await counters(state) };
    case "GET events": {
      const events = await state.pool.query(
        "SELECT id, account, type, attempts, delivered_at, gave_up_at, last_status, last_error FROM events ORDER BY seq DESC LIMIT 100",
      );
      return { status: 200, body: { data: events.rows } };
    }
    case "POST reset": {
      const input = resetInput.safeParse(body ?? undefined);
      if (!input.success) return bad(z.prettifyError(input.error));
      state.faults.clear();
      await state.setBehaviour({ mode: "succeed", delayMs: 500 });
      if (input.data?.data) await state.pool.query("TRUNCATE refunds, idempotency_keys, events, payment_intents");
      for (const key of Object.keys(state.stats)) state.stats[key] = 0;
      return { status: 200, body: { ok: true } };
    }
    default:
      return bad(`Unknown control route: ${method} ${path}`, 404);
  }
}

type PaymentIntentDbRow = {
  id: string;
  account: string;
  amount: string;
  currency: string;
  amount_refunded: string;
  charge: string;
  refund_mode: string | null;
  settle_delay_ms: number | null;
  created: string;
};

function paymentIntentView(row: PaymentIntentDbRow) {
  return {
    id: row.id,
    object: "payment_intent",
    account: row.account,
    amount: Number(row.amount),
    amount_refunded: Number(row.amount_refunded),
    currency: row.currency,
    latest_charge: row.charge,
    refund_mode: row.refund_mode,
    settle_delay_ms: row.settle_delay_ms,
    created: Number(row.created),
  };
}

/** Idempotent on `id`: the same id with the same amount and currency answers the existing one, else 409. */
async function createPaymentIntent(pool: pg.Pool, input: z.output<typeof createPaymentIntentInput>): Promise<Answer> {
  if ((input.amountRefunded ?? 0) > input.amount) return bad("amountRefunded is larger than amount");
  const id = input.id ?? newId("pi");
  const account = input.account ?? DEFAULT_ACCOUNT;
  const known = await pool.query("SELECT 1 FROM accounts WHERE id = $1", [account]);
  if (known.rowCount === 0) return bad(`No such account: '${account}'`, 404);
  const inserted = await pool.query<PaymentIntentDbRow>(
    `INSERT INTO payment_intents (id, amount, currency, amount_refunded, charge, refund_mode, settle_delay_ms, created, account)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING RETURNING *`,
    [
      id,
      input.amount,
      input.currency,
      input.amountRefunded ?? 0,
      newId("ch"),
      input.refundMode ?? null,
      input.settleDelayMs ?? null,
      nowUnix(),
      account,
    ],
  );
  if (inserted.rows[0]) return { status: 200, body: paymentIntentView(inserted.rows[0]) };
  const existing = (await pool.query<PaymentIntentDbRow>("SELECT * FROM payment_intents WHERE id = $1", [id])).rows[0]!;
  if (
    Number(existing.amount) !== input.amount ||
    existing.currency !== input.currency ||
    existing.account !== account
  ) {
    return bad(`payment_intent '${id}' exists with another amount, currency or account`, 409);
  }
  return { status: 200, body: paymentIntentView(existing) };
}

async function counters(state: ControlState) {
  const byPi = await state.pool.query<{ payment_intent: string; status: string; n: string; amount: string }>(
    "SELECT payment_intent, status, count(*) AS n, sum(amount) AS amount FROM refunds GROUP BY payment_intent, status",
  );
  const paymentIntents: Record<string, { refunds: number; amount: number; byStatus: Record<string, number> }> = {};
  const byStatus: Record<string, number> = {};
  let total = 0;
  for (const row of byPi.rows) {
    const entry = (paymentIntents[row.payment_intent] ??= { refunds: 0, amount: 0, byStatus: {} });
    const n = Number(row.n);
    entry.refunds += n;
    if (row.status !== "failed" && row.status !== "canceled") entry.amount += Number(row.amount);
    entry.byStatus[row.status] = n;
    byStatus[row.status] = (byStatus[row.status] ?? 0) + n;
    total += n;
  }
  const ev = await state.pool.query<{ total: string; delivered: string; gave_up: string }>(
    "SELECT count(*) AS total, count(delivered_at) AS delivered, count(gave_up_at) AS gave_up FROM events",
  );
  const keys = await state.pool.query<{ n: string }>("SELECT count(*) AS n FROM idempotency_keys");
  const e = ev.rows[0]!;
  return {
    refunds: { total, byStatus },
    paymentIntents,
    idempotencyKeys: Number(keys.rows[0]!.n),
    events: {
      total: Number(e.total),
      delivered: Number(e.delivered),
      gaveUp: Number(e.gave_up),
      waiting: Number(e.total) - Number(e.delivered) - Number(e.gave_up),
    },
    requests: { ...state.stats },
  };
}
