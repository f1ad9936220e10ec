import "server-only";
import { Logger } from "graphile-worker";
import { log } from "@/lib/server/log";

const jobLog = log.child({ component: "jobs" });

/** graphile-worker's log calls, forwarded to our structured (pino) log with the job's scope. */
export const jobLogger = new Logger((scope) => (level, message, meta) => {
  const fields = { ...scope, ...(meta ?? {}) };
  if (level === "error") jobLog.error(fields, message);
  else if (level === "warning") jobLog.warn(fields, message);
  else if (level === "info") jobLog.info(fields, message);
  else jobLog.debug(fields, message);
});
