import "server-only";
import { Logger } from "graphile-worker";
import { log } from "@/lib/server/log";

const jobLog = log.child({ component: "jobs" });

/** graphile-worker's log calls, forwarded to our structured (pino) log with the job's scope. */
export const jobLogger = new Logger((scope) => (level, message, meta) => {
  // graphile-worker passes whole job rows as meta; keep what identifies the job, not its payload.
  const { job, ...rest } = (meta ?? {}) as {
    job?: { id?: string; task_identifier?: string; attempts?: number; max_attempts?: number };
  };
  const fields = {
    ...scope,
    ...rest,
    ...(job
      ? { job: { id: job.id, task: job.task_identifier, attempt: job.attempts, maxAttempts: job.max_attempts } }
      : {}),
  };
  if (level === "error") jobLog.error(fields, message);
  else if (level === "warning") jobLog.warn(fields, message);
  else if (level === "info") jobLog.info(fields, message);
  else jobLog.debug(fields, message);
});
