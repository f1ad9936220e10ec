import "server-only";
import { createHash } from "node:crypto";
import pg from "pg";
import { databasePoolSize, databaseUrl } from "@/lib/server/env";
import type { Tx } from "./client";
import { Prisma } from "./generated/client";
import { SerialQueryClient } from "./serial-query-client";
import type { UnknownRow } from "kysely";
import { sqlOver, type Runner, type Sql as SqlHandle } from "./sql";

// node-postgres directly, for the hot path (the agent gateway's per-call transaction): Prisma's request
// pipeline costs ≈ 1 ms of CPU per statement and ≈ 3 ms per interactive transaction on top of the round trips
// (bench/gateway/prisma-overhead.ts). ONE pool per process, shared with Prisma's adapter (client.ts hands it
// this pool): same DATABASE_URL — so the same role (the owner, or app_runtime behind DATABASE_URL_APP) — and
// the same DATABASE_POOL_SIZE in total. Statements are Prisma.sql templates (parameterized, composable;
// `.text` is the $1… form), never strings built from values.

/** A statement as `Prisma.sql\`…\`` builds it: text with $n placeholders and its values. */
export type Sql = Prisma.Sql;
export const sql = Prisma.sql;
export const joinSql = Prisma.join;

/**
 * The narrow interface the shared writers (recordAuditEvent, enqueueJob, the notification outbox, the
 * proposal builder) need: run one statement, get its rows. Implemented by a pg transaction (PgTx), by the
 * pool (one auto-committed statement) and by a Prisma interactive transaction (asSql).
 */
export interface SqlClient {
  query<T = Record<string, unknown>>(statement: Sql): Promise<T[]>;
}

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
const defaultParser = pg.types.getTypeParser.bind(pg.types) as (oid: number, format?: "text" | "binary") => (value: string) => unknown;
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (format !== "binary" && oid === TIMESTAMP) return utcTimestamp;
    if (format !== "binary" && oid === INT8) return (v: string) => BigInt(v);
    return defaultParser(oid, format);
  }) as pg.CustomTypesConfig["getTypeParser"],
};

const preparedStatements = new WeakSet<Sql>();

/**
 * Marks a statement to run as a named (server-side prepared) statement on pg: each connection parses and
 * analyses its text once and keeps it, so later runs skip straight to planning and execution (PostgreSQL may
 * then also reuse a generic plan). For hot statements whose text is fixed, or drawn from a small set (the audit
 * event insert, the audit search page per filter combination) — never for text built from a growing list.
 * The name is a digest of the text, so two texts never share a name. Ignored on a Prisma transaction.
 * (Behind a connection pooler in transaction mode, that pooler must support prepared statements.)
 */
export function prepared(statement: Sql): Sql {
  preparedStatements.add(statement);
  return statement;
}

const statementName = (text: string) => `q_${createHash("sha1").update(text).digest("hex").slice(0, 30)}`;

async function run<T>(queryable: pg.Pool | pg.PoolClient, statement: Sql): Promise<T[]> {
  const name = preparedStatements.has(statement) ? statementName(statement.text) : undefined;
  const result = await queryable.query({ text: statement.text, values: statement.values, types, ...(name ? { name } : {}) });
  return result.rows as T[];
}

/** A runner for the typed SQL layer (./sql.ts) on the pool or on one pooled connection. */
function runnerOn(queryable: pg.Pool | pg.PoolClient): Runner {
  return async (query, isPrepared) => {
    const name = isPrepared ? statementName(query.sql) : undefined;
    const result = await queryable.query({ text: query.sql, values: query.parameters as unknown[], types, ...(name ? { name } : {}) });
    const wrote = result.command === "INSERT" || result.command === "UPDATE" || result.command === "DELETE" || result.command === "MERGE";
    return { rows: result.rows as UnknownRow[], ...(wrote && result.rowCount !== null ? { numAffectedRows: BigInt(result.rowCount) } : {}) };
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

/** One statement on the pool, auto-committed (a statement is atomic on its own: no BEGIN/COMMIT needed). */
export function pgQuery<T = Record<string, unknown>>(statement: Sql): Promise<T[]> {
  return run<T>(pgPool(), statement);
}

/** The pool as a SqlClient: each statement auto-committed on its own. */
export const pgAutocommit: SqlClient = { query: pgQuery };

export type PgTransactionOptions = {
  /** Longest wait for a connection from the pool (like Prisma's `maxWait`). */
  maxWait: number;
  /** Longest the whole transaction may take (like Prisma's `timeout`); also each statement's timeout. */
  timeout: number;
};

export class PgTransactionTimeoutError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} took longer than ${ms} ms`);
    this.name = "PgTransactionTimeoutError";
  }
}

/** A statement runner bound to one open transaction (withPgTransaction). */
export class PgTx implements SqlClient {
  #done = false;
  /** The same transaction as a handle of the typed SQL layer (./sql.ts). */
  readonly sql: SqlHandle;
  constructor(
    private readonly client: pg.PoolClient,
    private readonly deadline: number,
    private readonly timeout: number,
  ) {
    const runner = runnerOn(client);
    this.sql = sqlOver((query, isPrepared) => this.#check() ?? runner(query, isPrepared));
  }

  #check(): Promise<never> | undefined {
    if (this.#done) return Promise.reject(new Error("the transaction is already finished"));
    if (Date.now() > this.deadline) return Promise.reject(new PgTransactionTimeoutError("the transaction", this.timeout));
    return undefined;
  }

  query<T = Record<string, unknown>>(statement: Sql): Promise<T[]> {
    return this.#check() ?? run<T>(this.client, statement);
  }

  /** @internal */
  finish(): void {
    this.#done = true;
  }
}

/**
 * Runs `fn` in one READ COMMITTED transaction on its own pooled connection: BEGIN, fn's statements, COMMIT —
 * or ROLLBACK when fn throws (its error is rethrown). Like Prisma's interactive transaction with the same
 * limits: waiting for a connection is bounded by `maxWait`, each statement by `timeout` (statement_timeout,
 * set in BEGIN's round trip) and the whole transaction by `timeout` (checked before each statement and the
 * COMMIT). A connection whose ROLLBACK failed is destroyed, never returned to the pool.
 */
export async function withPgTransaction<T>(fn: (tx: PgTx) => Promise<T>, options: PgTransactionOptions): Promise<T> {
  const started = Date.now();
  const client = await connectWithin(pgPool(), options.maxWait);
  const tx = new PgTx(client, started + options.timeout, options.timeout);
  let broken: unknown = undefined;
  try {
    // One round trip (simple protocol, no values): the statement timeout lasts for this transaction only.
    await client.query(`BEGIN; SET LOCAL statement_timeout = ${Math.max(1, Math.floor(options.timeout))}`);
    const result = await fn(tx);
    if (Date.now() > started + options.timeout) throw new PgTransactionTimeoutError("the transaction", options.timeout);
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

/** A Prisma interactive transaction as a SqlClient: the same statements through `$queryRaw`. */
class PrismaSql implements SqlClient {
  constructor(private readonly tx: Tx) {}
  query<T = Record<string, unknown>>(statement: Sql): Promise<T[]> {
    return this.tx.$queryRaw<T[]>(statement);
  }
}

/** A Prisma interactive transaction, a pg transaction or the pool, as a SqlClient (the shared writers take any). */
export function asSql(tx: Tx | SqlClient): SqlClient {
  if (tx instanceof PgTx || tx instanceof PrismaSql || tx === pgAutocommit) return tx;
  return new PrismaSql(tx as Tx);
}

/**
 * A connection of its own, outside the pool (same DATABASE_URL, so the same role): for sessions that must
 * stay on one connection for the life of the process, like LISTEN (lib/server/realtime/change-listener.ts).
 * The caller connects and ends it.
 */
export function dedicatedPgClient(): pg.Client {
  return new pg.Client({ connectionString: databaseUrl() });
}
