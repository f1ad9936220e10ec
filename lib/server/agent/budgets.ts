import "server-only";
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { failure, type ToolOutcome } from "@/lib/domain/agent-protocol";
import { db } from "@/lib/server/db/client";

// Budgets per trace (DESIGN.md): total calls, identical repeated calls, errors. Counters live in
// PostgreSQL (AgentTraceCounter) and move with atomic upserts, so every app instance sees the same
// numbers; nothing is kept in process memory. They are charged outside the call's transaction on
// purpose: a call that fails or rolls back still counts. Once spent, the trace stays spent.

export const defaultBudget = { maxCallsPerTrace: 50, maxRepeatsPerTrace: 5, maxErrorsPerTrace: 10 } as const;
export type Budget = { maxCallsPerTrace: number; maxRepeatsPerTrace: number; maxErrorsPerTrace: number };

export function repeatKey(name: string, args: unknown): string {
  let body: string;
  try {
    body = canonicalize(args ?? null) ?? "null";
  } catch {
    body = String(args);
  }
  return "repeat:" + createHash("sha256").update(name).update("\u0000").update(body).digest("hex").slice(0, 32);
}

type CounterRow = { counter: string; count: number };

/** Counts this call; answers `limit_exceeded` when the trace has no budget left (and marks it spent). */
export async function chargeCall(tenantId: string, traceId: string, repeat: string): Promise<ToolOutcome | null> {
  const rows = await db().$queryRaw<CounterRow[]>`
    WITH bumped AS (
      INSERT INTO "AgentTraceCounter" ("tenantId", "traceId", "counter", "count")
      VALUES (${tenantId}::uuid, ${traceId}, 'calls', 1), (${tenantId}::uuid, ${traceId}, ${repeat}, 1)
      ON CONFLICT ("tenantId", "traceId", "counter")
      DO UPDATE SET "count" = "AgentTraceCounter"."count" + 1, "updatedAt" = (now() AT TIME ZONE 'UTC')
      RETURNING "counter", "count"
    )
    SELECT "counter", "count" FROM bumped
    UNION ALL
    SELECT "counter", "count" FROM "AgentTraceCounter"
     WHERE "tenantId" = ${tenantId}::uuid AND "traceId" = ${traceId} AND "counter" IN ('errors', 'spent')
    UNION ALL
    SELECT 'policy:' || k, v FROM "AgentBudgetPolicy" p,
      LATERAL (VALUES ('calls', p."maxCallsPerTrace"), ('repeats', p."maxRepeatsPerTrace"), ('errors', p."maxErrorsPerTrace")) AS x(k, v)
     WHERE p."tenantId" = ${tenantId}::uuid`;
  const get = (name: string) => rows.find((r) => r.counter === name)?.count;
  const budget: Budget = {
    maxCallsPerTrace: get("policy:calls") ?? defaultBudget.maxCallsPerTrace,
    maxRepeatsPerTrace: get("policy:repeats") ?? defaultBudget.maxRepeatsPerTrace,
    maxErrorsPerTrace: get("policy:errors") ?? defaultBudget.maxErrorsPerTrace,
  };
  const calls = get("calls") ?? 0;
  const repeats = get(repeat) ?? 0;
  const errors = get("errors") ?? 0;
  const spent = (get("spent") ?? 0) > 0;

  let which: "calls" | "repeats" | "errors" | null = null;
  if (spent) which = null;
  else if (calls > budget.maxCallsPerTrace) which = "calls";
  else if (repeats > budget.maxRepeatsPerTrace) which = "repeats";
  else if (errors >= budget.maxErrorsPerTrace) which = "errors";
  if (!spent && !which) return null;

  if (!spent) await bump(tenantId, traceId, "spent");
  return failure("limit_exceeded", "This conversation used up its tool budget. Stop calling tools and hand over to a human.", {
    budget: which ?? "spent",
    limits: { calls: budget.maxCallsPerTrace, identical_repeats: budget.maxRepeatsPerTrace, errors: budget.maxErrorsPerTrace },
  });
}

/** Counts an error answer against the trace's error budget. */
export async function chargeError(tenantId: string, traceId: string): Promise<void> {
  await bump(tenantId, traceId, "errors");
}

async function bump(tenantId: string, traceId: string, counter: string): Promise<void> {
  await db().$executeRaw`
    INSERT INTO "AgentTraceCounter" ("tenantId", "traceId", "counter", "count")
    VALUES (${tenantId}::uuid, ${traceId}, ${counter}, 1)
    ON CONFLICT ("tenantId", "traceId", "counter")
    DO UPDATE SET "count" = "AgentTraceCounter"."count" + 1, "updatedAt" = (now() AT TIME ZONE 'UTC')`;
}
