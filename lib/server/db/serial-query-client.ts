import pg from "pg";

/**
 * A pg client that runs one query at a time by itself, in call order.
 *
 * Prisma's query interpreter sends independent reads of one interactive transaction concurrently (a
 * relation load beside its parent, `Promise.all` inside `$transaction`), and its pg adapter hands them all
 * to the transaction's one client. node-postgres then queues them internally, which it deprecates ("Calling
 * client.query() when the client is already executing a query") and will refuse in pg 9. The wire order and
 * the results are the same here: each promise-style query waits for the one before it on this client. Queries
 * with a callback (the pool's own `pool.query`, on a client it holds alone) and submittables (cursors,
 * streams) go straight through.
 */
export class SerialQueryClient extends pg.Client {
  private tail: Promise<unknown> = Promise.resolve();

  // One signature for pg's overloads: they are told apart at run time, as pg itself does.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's query overloads cannot be restated one by one here
  override query(...args: any[]): any {
    const params = args as unknown[];
    const [config, values, callback] = params;
    const submittable = typeof (config as { submit?: unknown } | null)?.submit === "function";
    if (submittable || typeof values === "function" || typeof callback === "function")
      return (super.query as (...a: unknown[]) => unknown)(...params);
    const run = () => (super.query as (...a: unknown[]) => Promise<unknown>)(...params);
    const result = this.tail.then(run, run);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
