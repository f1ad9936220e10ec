// The bounded replay of transactions rolled back for a conflict (lib/server/db/retry.ts): which errors it
// replays, how often, with what waits, and that a try with an outside effect is never replayed. The replay of a
// real deadlock between two real transactions is in tests/integration/lock-order.test.ts.
import { describe, expect, it } from "vitest";
import { AppError, isAppError } from "@/lib/domain/outcome";
import { isConflictError, noteOutsideEffect, withConflictRetry, type RetryPolicy } from "./retry";

const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code });
const policy: RetryPolicy = { attempts: 4, baseDelayMs: 10, maxDelayMs: 30 };

/** A run of withConflictRetry whose tries fail with `errors` in turn (then succeed), with its tries and waits. */
async function run(errors: Error[], opts: { effectOnTry?: number; random?: number } = {}) {
  let tries = 0;
  const waits: number[] = [];
  const clock = {
    random: () => opts.random ?? 0.5,
    sleep: async (ms: number) => void waits.push(ms),
  };
  const result = await withConflictRetry(
    async () => {
      tries++;
      if (opts.effectOnTry === tries) noteOutsideEffect();
      const error = errors[tries - 1];
      if (error) throw error;
      return "committed";
    },
    policy,
    clock,
  ).catch((error: unknown) => error);
  return { result, tries, waits };
}

describe("withConflictRetry", () => {
  it("replays a deadlock (40P01) and a serialization failure (40001), then commits", async () => {
    expect(await run([pgError("40P01"), pgError("40001")])).toMatchObject({ result: "committed", tries: 3 });
  });

  it("gives up after policy.attempts tries with a documented answer (temporarily_unavailable), never a 500", async () => {
    const { result, tries } = await run(Array.from({ length: 10 }, () => pgError("40P01")));
    expect(tries).toBe(4);
    expect(isAppError(result) && result.code).toBe("temporarily_unavailable");
    expect((result as AppError).details).toMatchObject({ reason: "concurrent_change", retry_after_seconds: 1 });
  });

  it("waits a jittered, capped, growing time between tries (full jitter: random · min(max, base · 2^n))", async () => {
    const errors = [pgError("40P01"), pgError("40P01"), pgError("40P01")];
    expect((await run(errors, { random: 0.999 })).waits).toEqual([9, 19, 29]);
    expect((await run(errors, { random: 0.5 })).waits).toEqual([5, 10, 15]);
    expect((await run(errors, { random: 0 })).waits).toEqual([0, 0, 0]);
  });

  it("never replays any other error: a unique violation, a timeout, a refusal, a bug", async () => {
    for (const error of [
      pgError("23505"),
      pgError("57014"),
      pgError("55P03"),
      new AppError("permission_denied", "no"),
      new Error("bug"),
    ]) {
      const { result, tries, waits } = await run([error]);
      expect(tries).toBe(1);
      expect(result).toBe(error);
      expect(waits).toEqual([]);
    }
  });

  it("never replays a try that had an outside effect: its conflict is thrown as it came", async () => {
    const deadlock = pgError("40P01");
    expect(await run([deadlock], { effectOnTry: 1 })).toMatchObject({ result: deadlock, tries: 1 });
    // A try without an effect is replayed; the replay that has one is not.
    const second = pgError("40001");
    expect(await run([pgError("40P01"), second], { effectOnTry: 2 })).toMatchObject({ result: second, tries: 2 });
  });

  it("an outside effect inside a nested transaction marks the outer one too", async () => {
    let outerTries = 0;
    const result = await withConflictRetry(
      async () => {
        outerTries++;
        await withConflictRetry(async () => noteOutsideEffect(), policy, { random: () => 0, sleep: async () => {} });
        throw pgError("40P01");
      },
      policy,
      { random: () => 0, sleep: async () => {} },
    ).catch((error: unknown) => error);
    expect(outerTries).toBe(1);
    expect((result as { code: string }).code).toBe("40P01");
  });

  it("recognises the conflict however it is wrapped (pg's error, Prisma's P2034, a cause chain); nothing else", () => {
    expect(isConflictError(pgError("40P01"))).toBe(true);
    expect(isConflictError(pgError("40001"))).toBe(true);
    expect(isConflictError(Object.assign(new Error("prisma"), { code: "P2034" }))).toBe(true);
    expect(isConflictError(new Error("wrapped", { cause: pgError("40P01") }))).toBe(true);
    expect(isConflictError({ meta: { code: "40001" } })).toBe(true);
    expect(isConflictError(pgError("40P02"))).toBe(false);
    expect(isConflictError(pgError("23505"))).toBe(false);
    expect(isConflictError(Object.assign(new Error("prisma"), { code: "P2002" }))).toBe(false);
    expect(isConflictError(null)).toBe(false);
    expect(isConflictError("40P01")).toBe(false);
  });
});
