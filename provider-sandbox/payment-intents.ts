// Payment intents through the Stripe-shaped API: `GET /v1/payment_intents/{id}`, as the official client reads
// them (the app asks what was captured before it derives a refund amount). Creation is the control endpoint's.
import type pg from "pg";
import { stripeError } from "./objects";
import type { Answer } from "./refunds";

type Row = { id: string; amount: string; currency: string; charge: string; created: string };

/** Another account's payment intent is `resource_missing`, as one that does not exist (accounts.ts). */
export async function retrievePaymentIntent(
  client: pg.Pool | pg.PoolClient,
  account: string,
  id: string,
): Promise<Answer> {
  const found = await client.query<Row>(
    "SELECT id, amount, currency, charge, created FROM payment_intents WHERE id = $1 AND account = $2",
    [id, account],
  );
  const row = found.rows[0];
  if (!row)
    return stripeError(404, "invalid_request_error", `No such payment_intent: '${id}'`, {
      code: "resource_missing",
      param: "intent",
    });
  const amount = Number(row.amount);
  return {
    status: 200,
    body: {
      id: row.id,
      object: "payment_intent",
      amount,
      amount_received: amount,
      amount_capturable: 0,
      currency: row.currency,
      status: "succeeded",
      latest_charge: row.charge,
      capture_method: "automatic",
      metadata: {},
      created: Number(row.created),
      livemode: false,
    },
  };
}
