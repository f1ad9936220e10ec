// Delivery of the sandbox's events to the configured webhook URL, Stripe-style: JSON body, signed
// `Stripe-Signature` header, retried with exponential backoff until a 2xx or the last attempt. Events
// live in the sandbox's database, so a restart resumes deliveries where they stopped.
import type pg from "pg";
import { stripeSignatureHeader } from "./signature";

export type WebhookTarget = { url: string; secret: string; maxAttempts: number; baseDelayMs: number; timeoutMs: number };

type EventRow = { id: string; payload: string; attempts: number };

/** Sends the events that are due; returns how many were attempted. */
export async function deliverDueEvents(pool: pg.Pool, target: WebhookTarget, log: (line: string) => void): Promise<number> {
  // Claim a batch (lease 60 s), so a crash in the middle only delays these events.
  const claimed = await pool.query<EventRow>(
    `UPDATE events SET attempts = attempts + 1, next_attempt_at = now() + interval '60 seconds'
     WHERE id IN (SELECT id FROM events WHERE delivered_at IS NULL AND gave_up_at IS NULL AND next_attempt_at <= now()
                  ORDER BY seq LIMIT 20 FOR UPDATE SKIP LOCKED)
     RETURNING id, payload, attempts`,
  );
  const rows = [...claimed.rows].sort((a, b) => a.id.localeCompare(b.id));
  await Promise.all(rows.map((row) => deliverOne(pool, target, row, log)));
  return rows.length;
}

async function deliverOne(pool: pg.Pool, target: WebhookTarget, row: EventRow, log: (line: string) => void): Promise<void> {
  let status: number | null = null;
  let error: string | null = null;
  try {
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
      signal: AbortSignal.timeout(target.timeoutMs),
    });
    status = response.status;
    await response.arrayBuffer().catch(() => undefined);
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  if (status !== null && status >= 200 && status < 300) {
    await pool.query("UPDATE events SET delivered_at = now(), last_status = $2, last_error = NULL WHERE id = $1", [row.id, status]);
    return;
  }
  const giveUp = row.attempts >= target.maxAttempts;
  const delayMs = Math.min(target.baseDelayMs * 2 ** (row.attempts - 1), 3_600_000);
  await pool.query(
    `UPDATE events SET last_status = $2, last_error = $3,
       gave_up_at = CASE WHEN $4 THEN now() ELSE NULL END,
       next_attempt_at = CASE WHEN $4 THEN NULL ELSE now() + make_interval(secs => $5::double precision / 1000) END
     WHERE id = $1`,
    [row.id, status, error, giveUp, delayMs],
  );
  log(`webhook ${row.id} attempt ${row.attempts} ${status ?? error}${giveUp ? " (giving up)" : ""}`);
}
