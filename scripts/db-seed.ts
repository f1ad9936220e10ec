// npm run db:seed: load the deterministic demo into DATABASE_URL (or the embedded PostgreSQL).
import { prepareDatabase } from "./lib/database";

try {
  const db = await prepareDatabase({ demo: true, log: (m) => console.log(m) });
  await db.embedded?.stop();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
