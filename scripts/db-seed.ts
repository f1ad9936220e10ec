// npm run db:seed: load the deterministic demo into DATABASE_URL (or the embedded PostgreSQL).
// Refuses (exit 1, nothing loaded) a database that holds any tenant that is not a demo tenant: the demo's logins
// have published passwords and never join real data (scripts/lib/demo-data.ts seedDemo, docs/operations.md).
import { prepareDatabase } from "./lib/database";
import { jsonLog } from "./lib/json-log";

const log = jsonLog("db:seed");
try {
  const db = await prepareDatabase({ demo: true, log: (m) => log.info(m) });
  await db.embedded?.stop();
} catch (error) {
  log.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
