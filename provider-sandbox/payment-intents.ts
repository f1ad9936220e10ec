// Payment intents through the Stripe-shaped API: `POST /v1/payment_intents` (a confirmed card payment, as a shop
// makes one with the official `stripe` package) and `GET /v1/payment_intents/{id}`, as the official client reads
// them (the app asks what was captured before it derives a refund amount). The control endpoint creates them too
// (with refund behaviours and demo balances).
import type pg from "pg";
import type { FormObject } from "./form";
import { newId } from "./ids";
import { nowUnix, stripeError } from "./objects";
import { insertEvent, type Answer } from "./refunds";
import { inTransaction } from "./store";

type Row = {
  id: string;
  amount: string;
  currency: string;
  charge: string;
  created: string;
  metadata: Record<string, string> | null;
};

/** The test payment methods that succeed (Stripe's test cards by their PaymentMethod ids). */
const SUCCEEDING_METHODS = new Set(["pm_card_visa", "pm_card_mastercard", "pm_card_amex"]);
const CREATE_PARAMS = new Set(["amount", "currency", "confirm", "payment_method", "metadata", "description"]);

/**
 * `POST /v1/payment_intents` with `confirm=true` and a succeeding test method (`pm_card_visa`): a payment that
 * has succeeded at once (captured, its charge made), owned by the key's account, with a `payment_intent.succeeded`
 * event for the account's webhook in the same transaction. The sandbox makes no unconfirmed or failing payment:
 * anything else is a 400 that says so, never a payment in a state it cannot carry on.
 */
export async function createPaymentIntentFromApi(pool: pg.Pool, account: string, form: FormObject): Promise<Answer> {
  for (const key of Object.keys(form))
    if (!CREATE_PARAMS.has(key))
      return stripeError(400, "invalid_request_error", `Received unknown parameter: ${key}`, {
        code: "parameter_unknown",
        param: key,
      });
  const { amount, currency, confirm, payment_method: method, metadata } = form;
  if (typeof amount !== "string" || !/^\d{1,11}$/.test(amount) || Number(amount) < 1)
    return stripeError(
      400,
      "invalid_request_error",
      "amount must be a positive integer in the currency's minor unit.",
      {
        code: amount === undefined ? "parameter_missing" : "parameter_invalid_integer",
        param: "amount",
      },
    );
  if (typeof currency !== "string" || !/^[a-zA-Z]{3}$/.test(currency))
    return stripeError(400, "invalid_request_error", "currency must be a three-letter ISO code.", {
      code: currency === undefined ? "parameter_missing" : "invalid_currency",
      param: "currency",
    });
  if (confirm !== "true" || typeof method !== "string" || !SUCCEEDING_METHODS.has(method))
    return stripeError(
      400,
      "invalid_request_error",
      "This sandbox makes confirmed card payments only: pass confirm=true and payment_method=pm_card_visa (or pm_card_mastercard, pm_card_amex).",
      { code: "parameter_invalid", param: confirm !== "true" ? "confirm" : "payment_method" },
    );
  const meta: Record<string, string> = {};
  if (metadata !== undefined) {
    if (typeof metadata !== "object" || Array.isArray(metadata) || Object.keys(metadata).length > 50)
      return stripeError(400, "invalid_request_error", "metadata is a hash of up to 50 string values.", {
        param: "metadata",
      });
    for (const [k, v] of Object.entries(metadata)) {
      if (typeof v !== "string" || k.length > 40 || v.length > 500)
        return stripeError(
          400,
          "invalid_request_error",
          "metadata values are strings (keys ≤ 40, values ≤ 500 characters).",
          {
            param: `metadata[${k}]`,
          },
        );
      meta[k] = v;
    }
  }
  return inTransaction(pool, async (client) => {
    const inserted = await client.query<Row>(
      `INSERT INTO payment_intents (id, amount, currency, charge, created, account, metadata)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id, amount, currency, charge, created, metadata`,
      [newId("pi"), Number(amount), currency.toLowerCase(), newId("ch"), nowUnix(), account, JSON.stringify(meta)],
    );
    const body = paymentIntentObject(inserted.rows[0]!, method);
    await insertEvent(client, account, "payment_intent.succeeded", body);
    return { status: 200, body };
  });
}

function paymentIntentObject(row: Row, paymentMethod: string | null = null) {
  const amount = Number(row.amount);
  return {
    id: row.id,
    object: "payment_intent",
    amount,
    amount_received: amount,
    amount_capturable: 0,
    currency: row.currency,
    status: "succeeded",
    latest_charge: row.charge,
    payment_method: paymentMethod,
    capture_method: "automatic",
    confirmation_method: "automatic",
    metadata: row.metadata ?? {},
    created: Number(row.created),
    livemode: false,
  };
}

/** Another account's payment intent is `resource_missing`, as one that does not exist (accounts.ts). */
export async function retrievePaymentIntent(
  client: pg.Pool | pg.PoolClient,
  account: string,
  id: string,
): Promise<Answer> {
  const found = await client.query<Row>(
    "SELECT id, amount, currency, charge, created, metadata FROM payment_intents WHERE id = $1 AND account = $2",
    [id, account],
  );
  const row = found.rows[0];
  if (!row)
    return stripeError(404, "invalid_request_error", `No such payment_intent: '${id}'`, {
      code: "resource_missing",
      param: "intent",
    });
  return { status: 200, body: paymentIntentObject(row) };
}
