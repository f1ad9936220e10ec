import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { AppError } from "@/lib/domain/outcome";
import { metrics } from "@/lib/server/telemetry/metrics";

// A bounded replay of transactions PostgreSQL rolled back for a conflict with another one: a serialization
// failure (40001) or a deadlock (40P01, the victim PostgreSQL chose). Only those: any other error is thrown at
// once. The paths keep one lock order (docs/architecture.md "Locks"), so a deadlock is a bug, not the plan —
// the replay is the safety net. A transaction that already did something outside the database (a payment
// provider's createRefund, an e-mail, a webhook) is never replayed: it calls noteOutsideEffect() first.

/** SQLSTATEs of a transaction rolled back for a conflict: replaying it from the start is safe. */
const CONFLICT_STATES = new Set(["40001", "40P01"]);
/** Prisma's name for the same failure inside its savepoint ("write conflict or a deadlock"). */
const PRISMA_CONFLICT = "P2034";

export type RetryPolicy = {
  /** Tries in all (the first one included); 1 = never replay. */
  attempts: number;
  /** The wait before try n+1 is uniform in [0, min(maxDelayMs, baseDelayMs · 2^(n-1))] (full jitter). */
  baseDelayMs: number;
  maxDelayMs: number;
};

/** Every transaction's default: three tries, at most 25 ms then 50 ms of jittered wait between them. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 25, maxDelayMs: 200 };

/** Whether an error is PostgreSQL rolling the transaction back for a conflict (pg's error or Prisma's wrap of it). */
export function isConflictError(error: unknown): boolean {
  for (let e = error as Record<string, unknown> | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e !== "object") return false;
    if (typeof e.code === "string" && (CONFLICT_STATES.has(e.code) || e.code === PRISMA_CONFLICT)) return true;
    const meta = e.meta as Record<string, unknown> | undefined;
    if (meta && typeof meta.code === "string" && CONFLICT_STATES.has(meta.code)) return true;
    if (typeof e.originalCode === "string" && CONFLICT_STATES.has(e.originalCode)) return true;
    e = e.cause as Record<string, unknown> | undefined;
  }
  return false;
}

type Attempt = { outside: boolean; parent: Attempt | undefined };
const globalForRetry = globalThis as unknown as { retryAttempts?: AsyncLocalStorage<Attempt> };
// On globalThis like the transaction manager's store (./transaction.ts): one store per process, whatever the bundle.
const attempts = (globalForRetry.retryAttempts ??= new AsyncLocalStorage<Attempt>());

/**
 * The running transaction (and any transaction it runs in) has had an effect outside the database: if it fails
 * now, it is not replayed. Call it right before the effect. Outside a transaction it does nothing.
 */
export function noteOutsideEffect(): void {
  for (let a = attempts.getStore(); a; a = a.parent) a.outside = true;
}

/** Thrown when the replays are spent: a documented answer (503 / temporarily_unavailable), never a 500. */
export function conflictPersisted(): AppError {
  return new AppError(
    "temporarily_unavailable",
    "Someone else changed the same records at the same moment. Try again once after the wait.",
    { reason: "concurrent_change", retry_after_seconds: 1 },
  );
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` (one whole transaction: BEGIN … COMMIT or ROLLBACK) and replays it after a conflict, at most
 * `policy.attempts` tries in all with a jittered wait between them. Not replayed: any other error, and a try that
 * noted an outside effect (its conflict is thrown as it came). Replays spent: `conflictPersisted()`.
 */
export async function withConflictRetry<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy = DEFAULT_RETRY,
  clock: { random: () => number; sleep: (ms: number) => Promise<void> } = { random: Math.random, sleep },
): Promise<T> {
  for (let n = 1; ; n++) {
    const state: Attempt = { outside: false, parent: attempts.getStore() };
    try {
      return await attempts.run(state, attempt);
    } catch (error) {
      if (!isConflictError(error)) throw error;
      const outcome = state.outside ? "outside_effect" : n >= policy.attempts ? "gave_up" : "replayed";
      metrics().transactionConflicts.inc({ outcome });
      if (state.outside) throw error;
      if (n >= policy.attempts) throw conflictPersisted();
      await clock.sleep(Math.floor(clock.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - 1))));
    }
  }
}
