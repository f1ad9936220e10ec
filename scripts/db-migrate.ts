// npm run db:migrate: apply prisma/migrations to DATABASE_URL (or to the embedded PostgreSQL in
// .data/pg when DATABASE_URL is not set). Same table and format as `prisma migrate deploy`.
import { prepareDatabase } from "./lib/database";

try {
  const db = await prepareDatabase({ demo: false, log: (m) => console.log(m) });
  await db.embedded?.stop();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
