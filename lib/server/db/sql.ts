import "server-only";
import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from "kysely";
import { sql, type RawBuilder } from "kysely";
import type { Tx } from "./client";
import type { DB } from "./generated/kysely";

// The typed SQL layer: every statement Prisma's model API cannot express (row locks, SKIP LOCKED, advisory
// locks, ON CONFLICT, CTEs, NOTIFY, aggregates over joins) is a Kysely query over `DB`, the row types that
// prisma-kysely generates from prisma/schema.prisma (lib/server/db/generated/kysely.ts). Where the builder
// cannot say something, Kysely's `sql` template tag says it — still parameterized, still in this layer.
// docs/architecture.md ("Data access") says why and what it costs.
//
// A `Sql` handle runs on node-postgres, with the same statements wherever it comes from:
//   - a transaction on a connection of the process's one pool — `withPgTransaction` (lib/server/db/pg.ts: the
//     gateway's hot path) or `transaction` (./transaction.ts: the same transaction with Prisma's model API on
//     it; `sqlOf(tx)` is its handle);
//   - the pool itself (`sqlPool()`: each statement auto-committed on its own);
//   - a dedicated connection (`connectDedicatedSql()`: the audit sequencer's session).

export { sql, type RawBuilder };
export type { SqlBool } from "kysely";
export type { DB } from "./generated/kysely";

/** The typed SQL layer's handle: a transaction, the pool or a dedicated connection. */
export type Sql = Kysely<DB>;

/**
 * A JS time as a `timestamp` value (without time zone: how Prisma stores DateTime, in UTC) for a comparison or a
 * write, whatever the process's TZ. A Date passed as a plain parameter would not do: pg sends it in the process's
 * local time, and PostgreSQL drops the offset when it casts that text to `timestamp`.
 */
export function utc(at: Date): RawBuilder<Date> {
  return sql<Date>`(${at.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
}

/** The database's clock as a `timestamp` in UTC: what Prisma writes for `@default(now())` and `@updatedAt`. */
export const nowUtc: RawBuilder<Date> = sql<Date>`(now() AT TIME ZONE 'UTC')`;

/** Runs one compiled statement; `prepared` = as a named, server-side prepared statement (where possible). */
export type Runner = (query: CompiledQuery, prepared: boolean) => Promise<QueryResult<UnknownRow>>;

// The module's registries live on globalThis: a Next.js build can load this module more than once in one process
// (one copy per bundle layer), and what one copy records (a prepared statement, a transaction's handle) another
// copy looks up.
const globalForSql = globalThis as unknown as {
  preparedQueries?: WeakSet<object>;
  ormHandles?: WeakMap<object, Sql>;
};
const preparedQueries = (globalForSql.preparedQueries ??= new WeakSet<object>());

/** Marks every query compiled through it (prepared(), below): the driver sees the mark on the query id. */
const preparedPlugin: KyselyPlugin = {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    preparedQueries.add(args.queryId);
    return args.node;
  },
  transformResult(args: PluginTransformResultArgs) {
    return Promise.resolve(args.result);
  },
};

/**
 * Marks a statement to run as a named (server-side prepared) statement on pg: each connection parses and
 * analyses its text once and keeps it, so later runs skip straight to planning and execution. For hot
 * statements whose text is fixed, or drawn from a small set (the audit event insert, the audit search page per
 * filter combination) — never for text built from a growing list. (Behind a
 * connection pooler in transaction mode, that pooler must support prepared statements.)
 */
export function prepared<Q extends { withPlugin(plugin: KyselyPlugin): Q }>(query: Q): Q {
  return query.withPlugin(preparedPlugin);
}

class RunnerConnection implements DatabaseConnection {
  constructor(private readonly runner: Runner) {}
  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.runner(query, preparedQueries.has(query.queryId)) as Promise<QueryResult<R>>;
  }
  // eslint-disable-next-line require-yield -- no cursors in this layer: say so when someone asks for one
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("streaming is not supported by the SQL layer (lib/server/db/sql.ts)");
  }
}

/**
 * A driver over one runner: the transaction (or the pool) it was made from. It opens no transaction of its
 * own — `.transaction()` on a handle is refused, so a statement can never silently leave the caller's
 * transaction: open transactions with `transaction` (./transaction.ts) or `withPgTransaction` (./pg.ts).
 */
class RunnerDriver implements Driver {
  readonly #connection: RunnerConnection;
  constructor(runner: Runner) {
    this.#connection = new RunnerConnection(runner);
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.#connection;
  }
  async beginTransaction(): Promise<void> {
    throw new Error(
      "a Sql handle opens no transaction: use transaction (lib/server/db/transaction.ts) or withPgTransaction",
    );
  }
  async commitTransaction(): Promise<void> {
    throw new Error("a Sql handle opens no transaction");
  }
  async rollbackTransaction(): Promise<void> {
    throw new Error("a Sql handle opens no transaction");
  }
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}

/** A Sql handle over a runner (pg.ts builds the runners). */
export function sqlOver(runner: Runner): Sql {
  return new Kysely<DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new RunnerDriver(runner),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}

const ormHandles = (globalForSql.ormHandles ??= new WeakMap<object, Sql>());

/** Records the Sql handle of the pg transaction a Prisma transaction is a savepoint of (./transaction.ts). */
export function bindOrmToSql(tx: Tx, handle: Sql): void {
  ormHandles.set(tx, handle);
}

/**
 * The Sql handle of the transaction a Prisma transaction client belongs to (`transaction(fn)`,
 * ./transaction.ts): the same pg transaction, on the same connection, without Prisma's request pipeline.
 * Throws for anything else — a Prisma client or a transaction opened some other way has no pg transaction
 * under it (statements outside a transaction take `sqlPool()`).
 */
export function sqlOf(tx: Tx): Sql {
  const known = ormHandles.get(tx);
  if (!known) throw new Error("sqlOf: not a transaction opened by transaction() (lib/server/db/transaction.ts)");
  return known;
}
