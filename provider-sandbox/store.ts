// The sandbox provider's own tables, in its own database. Created at start (idempotent), under an
// advisory lock so two sandbox processes starting on one database do not race.
import type pg from "pg";
import { withPgConnection } from "./pg-connection";

const SCHEMA_LOCK = 7_311_402_651;

const DDL = `
CREATE TABLE IF NOT EXISTS payment_intents (
  id              text PRIMARY KEY,
  amount          bigint NOT NULL CHECK (amount > 0),
  currency        text NOT NULL,
  amount_refunded bigint NOT NULL DEFAULT 0,
  charge          text NOT NULL,
  refund_mode     text NULL,
  settle_delay_ms integer NULL,
  created         bigint NOT NULL,
  CHECK (amount_refunded >= 0 AND amount_refunded <= amount)
);
CREATE TABLE IF NOT EXISTS refunds (
  seq             bigserial UNIQUE,
  id              text PRIMARY KEY,
  payment_intent  text NOT NULL REFERENCES payment_intents(id),
  charge          text NOT NULL,
  amount          bigint NOT NULL CHECK (amount > 0),
  currency        text NOT NULL,
  status          text NOT NULL,
  reason          text NULL,
  failure_reason  text NULL,
  metadata        jsonb NOT NULL DEFAULT '{}'::jsonb,
  created         bigint NOT NULL,
  settle_at       timestamptz NULL,
  settle_to       text NULL,
  idempotency_key text NULL
);
CREATE INDEX IF NOT EXISTS refunds_by_payment_intent ON refunds (payment_intent, seq DESC);
CREATE INDEX IF NOT EXISTS refunds_due ON refunds (settle_at) WHERE status = 'pending';
-- One row per idempotency key, committed in the same transaction as the refund it answered for.
CREATE TABLE IF NOT EXISTS idempotency_keys (
  key          text PRIMARY KEY,
  method       text NOT NULL,
  path         text NOT NULL,
  fingerprint  text NOT NULL,
  request_id   text NOT NULL,
  status_code  integer NOT NULL,
  body         text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS events (
  seq             bigserial UNIQUE,
  id              text PRIMARY KEY,
  type            text NOT NULL,
  payload         text NOT NULL,
  created         bigint NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NULL,
  delivered_at    timestamptz NULL,
  gave_up_at      timestamptz NULL,
  last_status     integer NULL,
  last_error      text NULL
);
CREATE INDEX IF NOT EXISTS events_due ON events (next_attempt_at) WHERE delivered_at IS NULL AND gave_up_at IS NULL;
CREATE TABLE IF NOT EXISTS settings (
  key   text PRIMARY KEY,
  value jsonb NOT NULL
);
-- Accounts (accounts.ts): each sees only its own payment intents, refunds and idempotency keys, and its events
-- go to its own webhook endpoint signed with its own secret. The default account's keys are the process's
-- --api-key flags (held in memory); the others' are registered through the control endpoint (SHA-256 only).
CREATE TABLE IF NOT EXISTS accounts (
  id             text PRIMARY KEY,
  webhook_url    text NULL,
  webhook_secret text NULL,
  created        bigint NOT NULL,
  CHECK (webhook_url IS NULL OR webhook_secret IS NOT NULL)
);
CREATE TABLE IF NOT EXISTS account_keys (
  key_sha256 text PRIMARY KEY,
  account    text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE
);
ALTER TABLE payment_intents ADD COLUMN IF NOT EXISTS account text NOT NULL DEFAULT 'acct_default';
-- Set when a payment intent is created through POST /v1/payment_intents (metadata[…]).
ALTER TABLE payment_intents ADD COLUMN IF NOT EXISTS metadata jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE refunds ADD COLUMN IF NOT EXISTS account text NOT NULL DEFAULT 'acct_default';
ALTER TABLE events ADD COLUMN IF NOT EXISTS account text NOT NULL DEFAULT 'acct_default';
-- Idempotency keys are per account, as at Stripe.
ALTER TABLE idempotency_keys ADD COLUMN IF NOT EXISTS account text NOT NULL DEFAULT 'acct_default';
ALTER TABLE idempotency_keys DROP CONSTRAINT IF EXISTS idempotency_keys_pkey;
CREATE UNIQUE INDEX IF NOT EXISTS idempotency_keys_per_account ON idempotency_keys (account, key);
`;

/** Creates the database named in `databaseUrl` when it is missing (connecting to `postgres` on the same server). */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ""));
  if (!name) throw new Error("the sandbox database URL names no database");
  const admin = new URL(databaseUrl);
  admin.pathname = "/postgres";
  await withPgConnection(admin.toString(), async (client) => {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (exists.rowCount === 0) {
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      } catch (error) {
        // Another sandbox created it between our check and our CREATE.
        if ((error as { code?: string }).code !== "42P04") throw error;
      }
    }
  });
}

export async function ensureSchema(pool: pg.Pool): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [SCHEMA_LOCK]);
    await client.query(DDL);
  });
}

/**
 * Runs `fn` in one transaction on a pooled client: COMMIT when it returns, ROLLBACK when it throws or when it
 * called `rollback()` (a refusal that must leave nothing behind, advisory locks included); the client always goes
 * back to the pool.
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient, rollback: () => void) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let rolledBack = false;
  try {
    await client.query("BEGIN");
    const value = await fn(client, () => {
      rolledBack = true;
    });
    await client.query(rolledBack ? "ROLLBACK" : "COMMIT");
    return value;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
