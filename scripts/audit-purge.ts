// npm run audit:purge — the retention purge now (the worker also runs it daily): for every tenant, deletes
// audit events older than its retentionDays, except traces under legal hold, and leaves a checkpoint.
import nextEnv from "@next/env";

nextEnv.loadEnvConfig(process.cwd(), false, { info: () => undefined, error: console.error });
if (!process.env.DATABASE_URL) {
  console.error("[audit:purge] DATABASE_URL is not set.");
  process.exit(2);
}
const { purgeAllAuditEvents } = await import("../lib/server/audit/purge-audit-events");
const { db } = await import("../lib/server/db/client");
try {
  for (const r of await purgeAllAuditEvents()) console.log(JSON.stringify(r));
} finally {
  await db().$disconnect();
}
