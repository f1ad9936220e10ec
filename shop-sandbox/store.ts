// The sandbox shop's own tables, in its own database: the orders' fulfilment state (shop_orders) and every action
// received, keyed by its idempotency key, with the answer given (shop_actions). Created at start (idempotent),
// under an advisory lock so two shop processes starting on one database do not race. Also the two connection
// helpers the shop needs (a one-off connection to create its database, a transaction on the pool): the shop is an
// outside system and imports nothing from the app.
import pg from "pg";

const SCHEMA_LOCK = 7_311_402_652;

export const ORDER_STATUSES = ["unfulfilled", "shipped", "delivered", "cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const ACTION_STATUSES = ["succeeded", "failed", "pending"] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

const DDL = `
CREATE TABLE IF NOT EXISTS shop_orders (
  order_number     text PRIMARY KEY,
  status           text NOT NULL DEFAULT 'unfulfilled'
                   CHECK (status IN ('unfulfilled', 'shipped', 'delivered', 'cancelled')),
  shipping_address jsonb NULL,
  updated_at       timestamptz NOT NULL DEFAULT now()
);
-- One row per idempotency key. The row is inserted first in the action's transaction (the key's row lock, held
-- until COMMIT, makes a concurrent request with the same key wait), the work follows, and the answer is written
-- into the row before the same COMMIT: the effect and the stored answer commit together or not at all.
CREATE TABLE IF NOT EXISTS shop_actions (
  idempotency_key text PRIMARY KEY,
  kind            text NOT NULL,
  proposal_id     text NOT NULL,
  request         jsonb NOT NULL,
  status          text NOT NULL CHECK (status IN ('succeeded', 'failed', 'pending')),
  reference       text NULL,
  message         text NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS shop_actions_newest ON shop_actions (created_at DESC);
-- The customers' contact details the shop holds, by the shop's customer id (update_customer_contact).
CREATE TABLE IF NOT EXISTS shop_customer_contacts (
  customer_ref text NOT NULL,
  field        text NOT NULL CHECK (field IN ('email', 'phone')),
  value        text NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (customer_ref, field)
);
-- The replacement orders the shop created (create_order): the new order (also in shop_orders, unfulfilled, at the
-- original's address) and what it replaces.
CREATE TABLE IF NOT EXISTS shop_replacement_orders (
  order_number    text PRIMARY KEY,
  original_number text NOT NULL,
  items           jsonb NOT NULL,
  reason          text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS shop_replacement_orders_original ON shop_replacement_orders (original_number);
-- How many POSTs each idempotency key arrived in (the first and every replay): a sender that never sends a key twice
-- leaves 1 everywhere (the bulk message's batches are checked so).
ALTER TABLE shop_actions ADD COLUMN IF NOT EXISTS receipts integer NOT NULL DEFAULT 1;
-- The bulk messages' batches the shop took (send_bulk_message): one row per batch key, the recipients as sent (the
-- shop's customer ids; it resolves their contacts itself) and the exact text.
CREATE TABLE IF NOT EXISTS shop_message_batches (
  idempotency_key text PRIMARY KEY,
  proposal_id     text NOT NULL,
  segment         text NOT NULL,
  batch           integer NOT NULL,
  channel         text NOT NULL CHECK (channel IN ('email', 'sms')),
  recipients      jsonb NOT NULL,
  text            text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
-- What the shop's store-credit quote reads of an order (GET /store-credit/quote): who bought it and what it cost.
ALTER TABLE shop_orders ADD COLUMN IF NOT EXISTS customer_name text NULL;
ALTER TABLE shop_orders ADD COLUMN IF NOT EXISTS total_minor integer NULL;
ALTER TABLE shop_orders ADD COLUMN IF NOT EXISTS currency text NULL;
-- The store credit the shop issued (an admin-declared action, issue_store_credit): one row per idempotency key.
CREATE TABLE IF NOT EXISTS shop_store_credits (
  idempotency_key text PRIMARY KEY,
  order_number    text NOT NULL,
  amount_minor    integer NOT NULL CHECK (amount_minor >= 0),
  currency        text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
`;

/** Creates the database named in `databaseUrl` when it is missing (connecting to `postgres` on the same server). */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ""));
  if (!name) throw new Error("the shop's database URL names no database");
  const admin = new URL(databaseUrl);
  admin.pathname = "/postgres";
  // One connection, through a pool of one (the shop makes no pg.Client of its own).
  const pool = new pg.Pool({ connectionString: admin.toString(), max: 1 });
  pool.on("error", () => undefined);
  try {
    const exists = await pool.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (exists.rowCount === 0) {
      try {
        await pool.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      } catch (error) {
        // Another shop process created it between our check and our CREATE.
        if ((error as { code?: string }).code !== "42P04") throw error;
      }
    }
  } finally {
    await pool.end();
  }
}

export async function ensureSchema(pool: pg.Pool): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [SCHEMA_LOCK]);
    await client.query(DDL);
  });
}

/**
 * Runs `fn` in one transaction on a pooled client: COMMIT when it returns, ROLLBACK when it throws or when it
 * called `rollback()` (a refusal that must leave nothing behind); the client always goes back to the pool.
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
