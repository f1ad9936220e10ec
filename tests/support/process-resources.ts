// What a test file leaves open on its database in the worker process: Prisma's client, the one pg pool it shares with
// the typed SQL layer, and the LISTEN connection of the realtime feed. Integration files run one after another in a
// reused worker (isolate: false, vitest.config.ts), each on its own database (database-per-file.ts): all of it is
// closed and forgotten after each file, so the next file's db() and sqlPool() connect to that file's database.
// tests/integration/process-resources.test.ts proves it.
import type pg from "pg";

type Handles = { prisma?: { $disconnect(): Promise<void> }; pgPool?: pg.Pool; sqlPool?: unknown };

export async function releaseDatabaseHandles(): Promise<void> {
  const g = globalThis as unknown as Handles;
  const { stopProposalChanges } = await import("../../lib/server/realtime/proposal-changes");
  await stopProposalChanges();
  // Ends the pool too (client.ts: disposeExternalPool), when the file used Prisma at all.
  await g.prisma?.$disconnect();
  delete g.prisma;
  const pool = g.pgPool;
  if (pool && !pool.ending && !pool.ended) await pool.end();
  delete g.pgPool;
  delete g.sqlPool;
}
