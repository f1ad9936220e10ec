import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { omit, type Tx } from "./client";
import { PrismaClient } from "./generated/client";
import { onPgTransaction, type OpenPgTransaction, type PgTransactionOptions } from "./pg";
import { bindOrmToSql } from "./sql";

// The one transaction manager: every use case's transaction is a pg transaction on the process's one pool
// (onPgTransaction, ./pg.ts — BEGIN with a statement timeout, a deadline, ROLLBACK on any throw). The gateway's
// tools take its Sql handle (withPgTransaction); `transaction(fn)` opens the same transaction and hands fn
// Prisma's model API on it, with `sqlOf(tx)` (./sql.ts) as its Sql handle for the statements the model API
// cannot say. Prisma's side is a Prisma interactive transaction that is a SAVEPOINT of the pg transaction, on
// its connection: Prisma's pg adapter is given a "pool" (CallerConnection, below) whose only connection is
// the one the calling transaction holds, found through an AsyncLocalStorage entered for that one call.
// docs/architecture.md ("Data access") says why and what it costs.

/** Prisma's transaction control statements as what they become on the caller's transaction: its savepoint. */
function asSavepoint(statement: string, name: string): string | null {
  const text = statement.trim().toUpperCase();
  if (text === "BEGIN") return `SAVEPOINT ${name}`;
  if (text === "COMMIT") return `RELEASE SAVEPOINT ${name}`;
  if (text === "ROLLBACK") return `ROLLBACK TO SAVEPOINT ${name}`;
  return null;
}

/**
 * What Prisma's pg adapter takes for its pool. It opens no connection: `connect()` (how the adapter starts a
 * transaction) hands out the calling pg transaction's connection, on which the adapter's BEGIN, COMMIT and
 * ROLLBACK become SAVEPOINT, RELEASE and ROLLBACK TO; a statement outside a transaction is refused.
 */
class CallerConnection extends pg.Pool {
  #savepoints = 0;

  constructor(private readonly callerConnection: AsyncLocalStorage<pg.ClientBase>) {
    super({ max: 1 });
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's query overloads cannot be restated here
  override query(): any {
    return Promise.reject(new Error("Prisma's model API on a transaction runs only inside transaction()"));
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's connect overloads cannot be restated here
  override connect(): any {
    const conn = this.callerConnection.getStore();
    if (!conn) return Promise.reject(new Error("no pg transaction to run this Prisma transaction in"));
    const name = `orm_${++this.#savepoints}`;
    const connection = {
      // The adapter's statements: `{ text, values, rowMode, types }`, or a plain string.
      query(config: string | pg.QueryConfig, ...rest: unknown[]): Promise<unknown> {
        const savepoint = asSavepoint(typeof config === "string" ? config : config.text, name);
        if (savepoint) return conn.query(savepoint).then(() => ({ command: "", rowCount: 0, rows: [], fields: [] }));
        return (conn.query as (...a: unknown[]) => Promise<unknown>)(config, ...rest);
      },
      // The connection stays the outer transaction's: nothing to give back, no listener of Prisma's on it.
      release: () => undefined,
      on: () => connection,
      removeListener: () => connection,
    };
    return Promise.resolve(connection);
  }
}

type TransactionOrm = { client: PrismaClient; callerConnection: AsyncLocalStorage<pg.ClientBase> };
const globalForOrm = globalThis as unknown as { transactionOrm?: TransactionOrm };

/**
 * One Prisma client per process for transactions (it holds no connection; building one costs ~60 ms), with the
 * AsyncLocalStorage its pool reads. Both on globalThis, together: a Next.js build can load this module more than
 * once in one process (one copy per bundle layer), and every copy must enter the store the client reads.
 */
function transactionOrm(): TransactionOrm {
  if (!globalForOrm.transactionOrm) {
    const callerConnection = new AsyncLocalStorage<pg.ClientBase>();
    const adapter = new PrismaPg(new CallerConnection(callerConnection));
    globalForOrm.transactionOrm = { callerConnection, client: new PrismaClient({ adapter, omit }) };
  }
  return globalForOrm.transactionOrm;
}

/** Prisma's interactive-transaction defaults, which every use case ran with before this manager. */
export const DEFAULT_TRANSACTION: PgTransactionOptions = { maxWait: 2_000, timeout: 5_000 };

/**
 * Runs fn in one pg transaction (READ COMMITTED, on the process's one pool) with Prisma's model API on it:
 * `tx` is a Prisma transaction client whose statements run in that transaction, `sqlOf(tx)` its Sql handle.
 * COMMIT when fn returns, ROLLBACK when it throws (the error is rethrown). Limits as withPgTransaction's:
 * `maxWait` for a connection, `timeout` for each statement and for the whole transaction; after a deadlock or a
 * serialization failure, fn runs again in a new transaction (`retry`, ./retry.ts).
 */
export function transaction<T>(fn: (tx: Tx) => Promise<T>, options: Partial<PgTransactionOptions> = {}): Promise<T> {
  return onPgTransaction((open) => ormOn(open, fn), { ...DEFAULT_TRANSACTION, ...options });
}

/** Prisma's model API on an open pg transaction: a Prisma transaction that is a savepoint of it. */
export function ormOn<T>(open: OpenPgTransaction, fn: (tx: Tx) => Promise<T>): Promise<T> {
  // The outer transaction already has its connection and its deadline; Prisma's own limits only echo them.
  const left = Math.max(1, open.remaining());
  const { client, callerConnection } = transactionOrm();
  return callerConnection.run(open.connection, () =>
    client.$transaction(
      (tx) => {
        bindOrmToSql(tx, open.sql);
        return fn(tx);
      },
      { maxWait: left, timeout: left },
    ),
  );
}
