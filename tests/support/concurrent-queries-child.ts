// Run as its own process by tests/integration/pg-serial-queries.test.ts (node-postgres warns about a
// concurrent query once per process, so each case needs a fresh one). Argument: "serial" (the app's
// SerialQueryClient) or "plain" (pg.Client, the control). Prints one JSON line: the warnings the process
// emitted, what the queries returned, and the order in which three queries on one client finished.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../../lib/server/db/generated/client";
import { SerialQueryClient } from "../../lib/server/db/serial-query-client";

const mode = process.argv[2];
if (mode !== "serial" && mode !== "plain") throw new Error("usage: concurrent-queries-child.ts serial|plain");
const warnings: string[] = [];
process.on("warning", (w) => warnings.push(`${w.name}: ${w.message}`));

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: 1,
  Client: mode === "serial" ? SerialQueryClient : pg.Client,
});
const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });

// Independent reads in one interactive transaction: Prisma hands them to the transaction's one client at once.
const counts = await prisma.$transaction(async (tx) =>
  Promise.all([tx.tenant.count(), tx.staffUser.count(), tx.order.count(), tx.tenant.count()]),
);

// Three queries on one client, the first slow and the second failing: each must still finish in call order.
const client = await pool.connect();
const finished: string[] = [];
await Promise.all([
  client.query("SELECT pg_sleep(0.1)").then(() => finished.push("slow")),
  client.query("SELECT 1/0").catch((e: Error) => finished.push(`failed: ${e.message}`)),
  client.query("SELECT 3 AS n").then((r) => finished.push(`n=${r.rows[0].n}`)),
]);
client.release();
await prisma.$disconnect();
await new Promise((resolve) => setTimeout(resolve, 50)); // process warnings are emitted on a later tick
console.log(JSON.stringify({ warnings, counts, finished }));
