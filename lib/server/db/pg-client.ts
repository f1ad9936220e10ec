import pg from "pg";

// The one place the scripts, tests, benches and e2e specs make a node-postgres client:
// a connection of their own to a URL they are given (migrations, setup, fixtures, measurements). The app's own
// connections come from ./pg.ts (its pool and dedicatedPgClient). Plain Node: no "server-only", and nothing
// imported but `pg`, so Playwright and tsx scripts load it as they are (the sandboxes, outside systems, have their own).

export type PgClientOptions = {
  /** The session's application_name (pg_stat_activity), when the caller names its connection. */
  applicationName?: string;
};

/** An unconnected client: for a caller that attaches listeners before it connects, or hands out a factory. */
export function pgClient(connectionString: string, opts: PgClientOptions = {}): pg.Client {
  return new pg.Client({
    connectionString,
    ...(opts.applicationName ? { application_name: opts.applicationName } : {}),
  });
}

/** A connected client; the caller ends it. */
export async function openPgClient(connectionString: string, opts: PgClientOptions = {}): Promise<pg.Client> {
  const client = pgClient(connectionString, opts);
  await client.connect();
  return client;
}

/** Connects, runs `fn` on the connection, and ends it whatever `fn` does; returns what `fn` returns. */
export async function withPgClient<T>(
  connectionString: string,
  fn: (client: pg.Client) => Promise<T>,
  opts: PgClientOptions = {},
): Promise<T> {
  const client = await openPgClient(connectionString, opts);
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
