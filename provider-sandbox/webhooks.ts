// Delivery of the sandbox's events, Stripe-style: each to its account's own webhook endpoint (accounts.ts), JSON
// body, `Stripe-Signature` header made with that account's secret, retried with exponential backoff until a 2xx or
// the last attempt. Events live in the sandbox's database, so a restart resumes deliveries where they stopped.
import type pg from "pg";
import { stripeSignatureHeader } from "./signature";

export type DeliveryPolicy = { maxAttempts: number; baseDelayMs: number; timeoutMs: number };

type EventRow = { id: string; account: string; payload: string; attempts: number };
type Endpoint = { url: string; secret: string };

/** Sends the events that are due, each to its own account's endpoint; returns how many were attempted. */
export async function deliverDueEvents(
  pool: pg.Pool,
  policy: DeliveryPolicy,
  log: (line: string) => void,
): Promise<number> {
  // Claim a batch (lease 60 s), so a crash in the middle only delays these events.
  const claimed = await pool.query<EventRow>(
    `UPDATE events SET attempts = attempts + 1, next_attempt_at = now() + interval '60 seconds'
     WHERE id IN (SELECT id FROM events WHERE delivered_at IS NULL AND gave_up_at IS NULL AND next_attempt_at <= now()
                  ORDER BY seq LIMIT 20 FOR UPDATE SKIP LOCKED)
     RETURNING id, account, payload, attempts`,
  );
  if (claimed.rows.length === 0) return 0;
  // The endpoint as it is now (an account's endpoint may have been replaced since the event was recorded).
  const endpoints = await pool.query<{ id: string; webhook_url: string | null; webhook_secret: string | null }>(
    "SELECT id, webhook_url, webhook_secret FROM accounts WHERE id = ANY($1::text[])",
    [[...new Set(claimed.rows.map((r) => r.account))]],
  );
  const endpointOf = new Map<string, Endpoint>();
  for (const e of endpoints.rows)
    if (e.webhook_url && e.webhook_secret) endpointOf.set(e.id, { url: e.webhook_url, secret: e.webhook_secret });
  const rows = [...claimed.rows].sort((a, b) => a.id.localeCompare(b.id));
  await Promise.all(rows.map((row) => deliverOne(pool, policy, endpointOf.get(row.account) ?? null, row, log)));
  return rows.length;
}

async function deliverOne(
  pool: pg.Pool,
  policy: DeliveryPolicy,
  target: Endpoint | null,
  row: EventRow,
  log: (line: string) => void,
): Promise<void> {
  let status: number | null = null;
  let error: string | null = null;
  try {
    if (!target) throw new Error(`account ${row.account} has no webhook endpoint any more`);
    const timestamp = Math.floor(Date.now() / 1000);
    const response = await fetch(target.url, {
      method: "POST",
      headers: {
        "content-type": "application/json; charset=utf-8",
        "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
        "stripe-signature": stripeSignatureHeader({ payload: row.payload, secret: target.secret, timestamp }),
      },
      body: row.payload,
      redirect: "manual",
      signal: AbortSignal.timeout(policy.timeoutMs),
    });
    status = response.status;
    await response.arrayBuffer().catch(() => undefined);
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  if (status !== null && status >= 200 && status < 300) {
    await pool.query("UPDATE events SET delivered_at = now(), last_status = $2, last_error = NULL WHERE id = $1", [
      row.id,
      status,
    ]);
    return;
  }
  const giveUp = row.attempts >= policy.maxAttempts;
  const delayMs = Math.min(policy.baseDelayMs * 2 ** (row.attempts - 1), 3_600_000);
  await pool.query(
    `UPDATE events SET last_status = $2, last_error = $3,
       gave_up_at = CASE WHEN $4 THEN now() ELSE NULL END,
       next_attempt_at = CASE WHEN $4 THEN NULL ELSE now() + make_interval(secs => $5::double precision / 1000) END
     WHERE id = $1`,
    [row.id, status, error, giveUp, delayMs],
  );
  log(`webhook ${row.id} attempt ${row.attempts} ${status ?? error}${giveUp ? " (giving up)" : ""}`);
}
