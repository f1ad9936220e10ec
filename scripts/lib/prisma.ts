// A Prisma client for scripts and tests, on an explicit connection string.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../../lib/server/db/generated/client";

export function prismaFor(url: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
}
