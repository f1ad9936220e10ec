import "server-only";
import type { JobHelpers, Task } from "graphile-worker";
import { traceJob } from "@/lib/server/telemetry/job-span";
import { jobTable, type JobName, type JobPayload } from "./job-types";

export type TaskContext = {
  helpers: JobHelpers;
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  maxAttempts: number;
  /** True when a throw now gives the job up for good (no retry follows). */
  isLastAttempt: boolean;
};

/**
 * One background task: its payload schema comes from the job table (job-types.ts), the handler gets the
 * parsed payload. Throwing makes graphile-worker retry with exponential backoff (exp(min(attempt, 10))
 * seconds) up to the job's max attempts; a payload that does not parse is a bug, so it fails without
 * retry-worthy side effects.
 */
export function defineTask<N extends JobName>(
  name: N,
  run: (payload: JobPayload<N>, ctx: TaskContext) => Promise<void>,
): Task {
  return async (raw, helpers) => {
    const parsed = jobTable[name].payload.safeParse(raw ?? {});
    if (!parsed.success) {
      throw new Error(
        `invalid payload for ${helpers.job.task_identifier}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"} ${i.message}`).join("; ")}`,
      );
    }
    const attempt = helpers.job.attempts;
    const maxAttempts = helpers.job.max_attempts;
    await traceJob(name, raw, { id: String(helpers.job.id), attempt }, () =>
      run(parsed.data as JobPayload<N>, { helpers, attempt, maxAttempts, isLastAttempt: attempt >= maxAttempts }),
    );
  };
}
