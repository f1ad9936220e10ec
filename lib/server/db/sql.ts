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
// A `Sql` handle runs on whatever it was made from, with the same statements:
//   - a pg transaction of the process's one pool (`withPgTransaction`, lib/server/db/pg.ts: the hot path);
//   - a Prisma interactive transaction (`sqlOf(tx)`: through `$queryRawUnsafe` / `$executeRawUnsafe`, so the
//     statements join that transaction);
//   - the pool itself (`sqlPool()`: each statement auto-committed on its own).

export { sql, type RawBuilder };
export type { SqlBool } from "kysely";
export type { DB } from "./generated/kysely";

/** The typed SQL layer's handle: a transaction (pg or Prisma) or the pool. */
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

const preparedQueries = new WeakSet<object>();

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
 * filter combination) — never for text built from a growing list. Ignored on a Prisma transaction. (Behind a
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
 * transaction: open transactions with `withPgTransaction` (lib/server/db/pg.ts) or `db().$transaction`.
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
      "a Sql handle opens no transaction: use withPgTransaction (lib/server/db/pg.ts) or db().$transaction",
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

/** A Sql handle over a runner (the pg side builds its own in pg.ts; Prisma's is sqlOf, below). */
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

// Statements that return no rows unless they say RETURNING: on Prisma they go through $executeRawUnsafe,
// which reports the affected row count (Kysely's numAffectedRows), as pg's rowCount does on the pg side.
const WRITES = new Set(["InsertQueryNode", "UpdateQueryNode", "DeleteQueryNode", "MergeQueryNode"]);
// A raw statement (Kysely's `sql` tag) is looked at by its text: a write without RETURNING reports its count too.
// Prisma cannot read a `void` column: call void functions in FROM (`SELECT 1 FROM pg_advisory_xact_lock(…)`).
const RAW_WRITE = /^\s*(insert|update|delete|merge)\b/i;
const returnsRows = (query: CompiledQuery) => {
  const node = query.query;
  if (node.kind === "RawNode") return !RAW_WRITE.test(query.sql) || /\breturning\b/i.test(query.sql);
  return !WRITES.has(node.kind) || ("returning" in node && node.returning !== undefined);
};

const prismaHandles = new WeakMap<object, Sql>();

/**
 * The Sql handle of a Prisma interactive transaction (or of the Prisma client itself): its statements run
 * inside that transaction, rows come back as Prisma's raw queries return them (int8 as bigint, timestamps as
 * Date). One handle per transaction.
 */
export function sqlOf(tx: Tx): Sql {
  const known = prismaHandles.get(tx);
  if (known) return known;
  const handle = sqlOver(async (query) => {
    if (returnsRows(query)) {
      const rows = await tx.$queryRawUnsafe<UnknownRow[]>(query.sql, ...query.parameters);
      return { rows };
    }
    const count = await tx.$executeRawUnsafe(query.sql, ...query.parameters);
    return { rows: [], numAffectedRows: BigInt(count) };
  });
  prismaHandles.set(tx, handle);
  return handle;
}
