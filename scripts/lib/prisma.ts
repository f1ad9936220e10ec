// A Prisma client for scripts and tests, on an explicit connection string. Its pool uses the app's
// SerialQueryClient (lib/server/db/serial-query-client.ts), so scripts do not trip pg's concurrent-query warning.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../../lib/server/db/generated/client";
import { SerialQueryClient } from "../../lib/server/db/serial-query-client";

export function prismaFor(url: string): PrismaClient {
  return new PrismaClient({
    adapter: new PrismaPg(new pg.Pool({ connectionString: url, Client: SerialQueryClient }), {
      disposeExternalPool: true,
    }),
  });
}
