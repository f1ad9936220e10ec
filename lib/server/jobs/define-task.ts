import "server-only";
import type { JobHelpers, Task } from "graphile-worker";
import type { z } from "zod";

export type TaskContext = {
  helpers: JobHelpers;
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  maxAttempts: number;
  /** True when a throw now gives the job up for good (no retry follows). */
  isLastAttempt: boolean;
};

/**
 * One background task: a zod schema for its payload and a handler. Throwing makes graphile-worker
 * retry with exponential backoff (exp(min(attempt, 10)) seconds) up to the job's max attempts; a
 * payload that does not parse is a bug, so it fails without retry-worthy side effects.
 */
export function defineTask<S extends z.ZodType>(spec: { payload: S; run: (payload: z.infer<S>, ctx: TaskContext) => Promise<void> }): Task {
  return async (raw, helpers) => {
    const parsed = spec.payload.safeParse(raw ?? {});
    if (!parsed.success) {
      throw new Error(`invalid payload for ${helpers.job.task_identifier}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"} ${i.message}`).join("; ")}`);
    }
    const attempt = helpers.job.attempts;
    const maxAttempts = helpers.job.max_attempts;
    await spec.run(parsed.data, { helpers, attempt, maxAttempts, isLastAttempt: attempt >= maxAttempts });
  };
}
