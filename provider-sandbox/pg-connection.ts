// The sandbox's one-off database connection (creating its own database on the server before its pool exists).
// The sandbox is a separate program, so it has this helper of its own instead of the app's lib/server/db/pg-client.
// A pool of one connection, not a pg.Client: lib/domain/boundaries.test.ts keeps `new pg.Client(` to
// lib/server/db, and a one-connection pool does the same work here.
import pg from "pg";

/** Connects to `connectionString`, runs `fn` on one connection, and closes it whatever `fn` does. */
export async function withPgConnection<T>(
  connectionString: string,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const pool = new pg.Pool({ connectionString, max: 1 });
  // An idle connection the server drops would otherwise surface as an unhandled 'error' event.
  pool.on("error", () => undefined);
  try {
    const client = await pool.connect();
    try {
      return await fn(client);
    } finally {
      client.release();
    }
  } finally {
    await pool.end();
  }
}
