import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client";
import { pgPool } from "./pg";

// One client per process (kept on globalThis so dev hot reloads do not open new pools).
const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

function createClient(): PrismaClient {
  // The process's one pg pool (DATABASE_URL, DATABASE_POOL_SIZE), shared with the hot path's direct pg
  // statements (./pg.ts), so Prisma and pg together never hold more than the pool size.
  // `$disconnect()` ends it (tests and benches rely on that to exit).
  const adapter = new PrismaPg(pgPool(), { disposeExternalPool: true });
  return new PrismaClient({ adapter, omit });
}

// AuditEvent.pos (a BIGINT write position) is left out of default selections: it is only for ordering and
// keyset pages, and a bigint in a row would break JSON.stringify of that row. Shared with transaction.ts's
// client, so a transaction's rows have the same shape and type as db()'s.
export const omit = { auditEvent: { pos: true } } as const;

export function db(): PrismaClient {
  globalForPrisma.prisma ??= createClient();
  return globalForPrisma.prisma;
}

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
