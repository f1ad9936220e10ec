import { readFileSync } from "node:fs";
import pg from "pg";

/** The database of the server under test (its start script writes the URL for us). */
export async function withDb<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const url = readFileSync(".data/e2e-database-url", "utf8").trim();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
