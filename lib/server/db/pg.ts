import "server-only";
import { createHash } from "node:crypto";
import pg from "pg";
import { databasePoolSize, databaseUrl } from "@/lib/server/env";
import type { UnknownRow } from "kysely";
import { DEFAULT_RETRY, withConflictRetry, type RetryPolicy } from "./retry";
import { SerialQueryClient } from "./serial-query-client";
import { sqlOver, type Runner, type Sql as SqlHandle } from "./sql";

// The process's one pg pool and the pg carriers of the typed SQL layer (./sql.ts): the pool itself (sqlPool)
// and a transaction on one of its connections (withPgTransaction) — the hot path (the agent gateway's
// per-call transaction), off Prisma's request pipeline, which costs CPU per statement and per interactive
// transaction on top of the round trips (bench/gateway/prisma-overhead.ts). ONE pool per process, shared with
// Prisma's adapter (client.ts hands it this pool): same DATABASE_URL — so the same role (the owner, or
// app_runtime behind DATABASE_URL_APP) — and the same DATABASE_POOL_SIZE in total. Statements are Kysely
// queries (parameterized), never strings built from values.

const globalForPg = globalThis as unknown as { pgPool?: pg.Pool };

export function pgPool(): pg.Pool {
  const current = globalForPg.pgPool;
  // db().$disconnect() ends this pool too (client.ts: disposeExternalPool): a later call opens a new one.
  if (current && !current.ending && !current.ended) return current;
  // SerialQueryClient: Prisma sends a transaction's independent reads at once; they wait for each other here.
  const pool = new pg.Pool({ connectionString: databaseUrl(), max: databasePoolSize(), Client: SerialQueryClient });
  // An idle connection that dies (server restart) must not crash the process; the pool replaces it.
  pool.on("error", () => undefined);
  globalForPg.pgPool = pool;
  return pool;
}

// Rows as Prisma's raw queries return them: `timestamp` (without time zone, how Prisma stores DateTime)
// read as UTC whatever the process's TZ, int8 as bigint. Per query, so the pg module's global parsers
// (which Prisma's adapter also uses) stay untouched.
const TIMESTAMP = 1114;
const INT8 = 20;
const utcTimestamp = (v: string): Date | string => {
  if (v === "infinity" || v === "-infinity") return v;
  return new Date(v.replace(" ", "T") + "Z");
};
const defaultParser = pg.types.getTypeParser.bind(pg.types) as (
  oid: number,
  format?: "text" | "binary",
) => (value: string) => unknown;
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (format !== "binary" && oid === TIMESTAMP) return utcTimestamp;
    if (format !== "binary" && oid === INT8) return (v: string) => BigInt(v);
    return defaultParser(oid, format);
  }) as pg.CustomTypesConfig["getTypeParser"],
};

const statementName = (text: string) => `q_${createHash("sha1").update(text).digest("hex").slice(0, 30)}`;

/** A runner for the typed SQL layer (./sql.ts) on the pool or on one connection (pooled or dedicated). */
function runnerOn(queryable: pg.Pool | pg.ClientBase): Runner {
  return async (query, isPrepared) => {
    const name = isPrepared ? statementName(query.sql) : undefined;
    const result = await queryable.query({
      text: query.sql,
      values: query.parameters as unknown[],
      types,
      ...(name ? { name } : {}),
    });
    const wrote =
      result.command === "INSERT" ||
      result.command === "UPDATE" ||
      result.command === "DELETE" ||
      result.command === "MERGE";
    return {
      rows: result.rows as UnknownRow[],
      ...(wrote && result.rowCount !== null ? { numAffectedRows: BigInt(result.rowCount) } : {}),
    };
  };
}

/** The typed SQL layer on one connection the caller holds (and releases). */
export function sqlOnConnection(client: pg.PoolClient): SqlHandle {
  return sqlOver(runnerOn(client));
}

const globalForSql = globalThis as unknown as { sqlPool?: { pool: pg.Pool; handle: SqlHandle } };

/** The typed SQL layer on the pool: each statement auto-committed on its own (no BEGIN/COMMIT). */
export function sqlPool(): SqlHandle {
  const pool = pgPool();
  const known = globalForSql.sqlPool;
  if (known?.pool === pool) return known.handle;
  const handle = sqlOver(runnerOn(pool));
  globalForSql.sqlPool = { pool, handle };
  return handle;
}

export type PgTransactionOptions = {
  /** Longest wait for a connection from the pool (like Prisma's `maxWait`). */
  maxWait: number;
  /** Longest the whole transaction may take (like Prisma's `timeout`); also each statement's timeout. */
  timeout: number;
  /**
   * Replays after a serialization failure or a deadlock (./retry.ts): DEFAULT_RETRY unless told otherwise,
   * `false` for never. Each try is a whole new transaction with its own limits; fn runs again from the start,
   * so it must not keep state of a failed try (a try that noted an outside effect is never replayed).
   */
  retry?: RetryPolicy | false;
};

export class PgTransactionTimeoutError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} took longer than ${ms} ms`);
    this.name = "PgTransactionTimeoutError";
  }
}

/** One open transaction (withPgTransaction): its statements, refused once it is finished or past its deadline. */
class PgTx {
  #done = false;
  /** The transaction as a handle of the typed SQL layer (./sql.ts). */
  readonly sql: SqlHandle;
  constructor(client: pg.PoolClient, deadline: number, timeout: number) {
    const runner = runnerOn(client);
    this.sql = sqlOver((query, isPrepared) => {
      if (this.#done) return Promise.reject(new Error("the transaction is already finished"));
      if (Date.now() > deadline) return Promise.reject(new PgTransactionTimeoutError("the transaction", timeout));
      return runner(query, isPrepared);
    });
  }

  finish(): void {
    this.#done = true;
  }
}

/**
 * Runs `fn` in one READ COMMITTED transaction on its own pooled connection: BEGIN, fn's statements, COMMIT —
 * or ROLLBACK when fn throws (its error is rethrown). Like Prisma's interactive transaction with the same
 * limits: waiting for a connection is bounded by `maxWait`, each statement by `timeout` (statement_timeout,
 * set in BEGIN's round trip) and the whole transaction by `timeout` (checked before each statement and the
 * COMMIT). A connection whose ROLLBACK failed is destroyed, never returned to the pool. A try rolled back for a
 * deadlock or a serialization failure is replayed (`options.retry`, ./retry.ts).
 */
export function withPgTransaction<T>(fn: (tx: SqlHandle) => Promise<T>, options: PgTransactionOptions): Promise<T> {
  return onPgTransaction((tx) => fn(tx.sql), options);
}

/** What `transaction` (./transaction.ts) builds on: the open transaction's connection beside its Sql handle. */
export type OpenPgTransaction = {
  sql: SqlHandle;
  connection: pg.PoolClient;
  /** Milliseconds left before the transaction's deadline. */
  remaining: () => number;
};

/** withPgTransaction, handing fn the connection too (for ./transaction.ts only). */
export function onPgTransaction<T>(
  fn: (tx: OpenPgTransaction) => Promise<T>,
  options: PgTransactionOptions,
): Promise<T> {
  const retry = options.retry === undefined ? DEFAULT_RETRY : options.retry;
  if (retry === false) return onePgTransaction(fn, options);
  return withConflictRetry(() => onePgTransaction(fn, options), retry);
}

/** One try of onPgTransaction: BEGIN, fn, COMMIT — or ROLLBACK and the error. */
async function onePgTransaction<T>(
  fn: (tx: OpenPgTransaction) => Promise<T>,
  options: PgTransactionOptions,
): Promise<T> {
  const started = Date.now();
  const deadline = started + options.timeout;
  const client = await connectWithin(pgPool(), options.maxWait);
  const tx = new PgTx(client, deadline, options.timeout);
  let broken: unknown = undefined;
  try {
    // One round trip (simple protocol, no values): the statement timeout lasts for this transaction only.
    await client.query(`BEGIN; SET LOCAL statement_timeout = ${Math.max(1, Math.floor(options.timeout))}`);
    const result = await fn({ sql: tx.sql, connection: client, remaining: () => deadline - Date.now() });
    if (Date.now() > deadline) throw new PgTransactionTimeoutError("the transaction", options.timeout);
    tx.finish();
    await client.query("COMMIT");
    return result;
  } catch (error) {
    tx.finish();
    try {
      await client.query("ROLLBACK");
    } catch (rollbackError) {
      broken = rollbackError;
    }
    throw error;
  } finally {
    client.release(broken instanceof Error ? broken : broken ? new Error("rollback failed") : undefined);
  }
}

async function connectWithin(pool: pg.Pool, ms: number): Promise<pg.PoolClient> {
  const pending = pool.connect();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PgTransactionTimeoutError("waiting for a database connection", ms)), ms);
  });
  try {
    return await Promise.race([pending, timedOut]);
  } catch (error) {
    // Given up: the connection, when it comes, goes straight back to the pool.
    pending.then((c) => c.release()).catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A connection of its own, outside the pool (DATABASE_URL unless told another, so the same role): for sessions
 * that must stay on one connection for the life of the process — LISTEN (lib/server/realtime/change-listener.ts),
 * the audit sequencer's session-level advisory locks (lib/server/audit/sequencer.ts). The caller connects and
 * ends it. The one place in the app that makes a pg client.
 */
export function dedicatedPgClient(opts: { connectionString?: string; applicationName?: string } = {}): pg.Client {
  return new pg.Client({
    connectionString: opts.connectionString ?? databaseUrl(),
    ...(opts.applicationName ? { application_name: opts.applicationName } : {}),
  });
}

/** A dedicated connection as a handle of the typed SQL layer, for as long as its session lasts. */
export type DedicatedSql = {
  /** Every statement on the one connection, in its session (session-level locks, a BEGIN … COMMIT of its own). */
  sql: SqlHandle;
  /** Closes the connection; the server then drops whatever the session held (its advisory locks). */
  end: () => Promise<void>;
};

/**
 * Opens a dedicated connection (dedicatedPgClient) and hands it out as a Sql handle: the audit sequencer's
 * session, whose advisory locks must outlive any one transaction. `onError`: the connection broke while idle.
 */
export async function connectDedicatedSql(
  opts: { connectionString?: string; applicationName?: string; onError?: (error: Error) => void } = {},
): Promise<DedicatedSql> {
  const client = dedicatedPgClient(opts);
  if (opts.onError) client.on("error", opts.onError);
  await client.connect();
  return { sql: sqlOver(runnerOn(client)), end: () => client.end() };
}
