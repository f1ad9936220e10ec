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

// ---- budgets per time window (per agent key, per end user) ---------------------------------------
// Fixed windows of the tenant's `windowSeconds`; one row per (tenant, subject, window) bumped by a single
// INSERT … ON CONFLICT DO UPDATE … RETURNING, so the check and the increment are one atomic statement:
// N parallel calls over the budget let exactly the budget through, on any number of instances. They do not
// depend on trace headers: a call without one, or with a fresh X-Trace-Id each time, still counts.

export const defaultWindowBudget = { windowSeconds: 60, maxCallsPerKeyPerWindow: 600, maxCallsPerEndUserPerWindow: 60 } as const;

export type WindowSubject = { kind: "agent_key"; keyId: string } | { kind: "end_user"; customerId: string };

type WindowRow = { count: number; limit: number; windowSeconds: number; retryAfter: number };

/** Counts this call in its subject's current window; `limit_exceeded` with `retry_after_seconds` when over. */
export async function chargeWindow(tenantId: string, subject: WindowSubject): Promise<ToolOutcome | null> {
  const key = subject.kind === "agent_key" ? `key:${subject.keyId}` : `user:${subject.customerId}`;
  const [row] = await db().$queryRaw<WindowRow[]>`
    WITH p AS (
      SELECT coalesce(max(b."windowSeconds"), ${defaultWindowBudget.windowSeconds}) AS w,
             coalesce(max(CASE WHEN ${subject.kind} = 'agent_key' THEN b."maxCallsPerKeyPerWindow" ELSE b."maxCallsPerEndUserPerWindow" END),
                      ${subject.kind === "agent_key" ? defaultWindowBudget.maxCallsPerKeyPerWindow : defaultWindowBudget.maxCallsPerEndUserPerWindow}) AS lim
        FROM "AgentBudgetPolicy" b WHERE b."tenantId" = ${tenantId}::uuid
    ), win AS (
      SELECT to_timestamp(floor(extract(epoch FROM now()) / p.w) * p.w) AT TIME ZONE 'UTC' AS start, p.w, p.lim FROM p
    )
    INSERT INTO "AgentWindowCounter" ("tenantId", "subject", "windowStart", "count")
    SELECT ${tenantId}::uuid, ${key}, win.start, 1 FROM win
    ON CONFLICT ("tenantId", "subject", "windowStart") DO UPDATE SET "count" = "AgentWindowCounter"."count" + 1
    RETURNING "count",
      (SELECT lim FROM win)::int AS "limit",
      (SELECT w FROM win)::int AS "windowSeconds",
      greatest(1, ceil(extract(epoch FROM "windowStart") + (SELECT w FROM win) - extract(epoch FROM now())))::int AS "retryAfter"`;
  if (!row || row.count <= row.limit) return null;
  const who = subject.kind === "agent_key" ? "this agent" : "this customer";
  return failure(
    "limit_exceeded",
    `Too many tool calls for ${who} right now. Stop calling tools; tell the customer to try again later or hand over to a human.`,
    {
      budget: subject.kind === "agent_key" ? "agent_key_window" : "end_user_window",
      retry_after_seconds: row.retryAfter,
      limits: { calls: row.limit, window_seconds: row.windowSeconds },
    },
  );
}

async function bump(tenantId: string, traceId: string, counter: string): Promise<void> {
  await db().$executeRaw`
    INSERT INTO "AgentTraceCounter" ("tenantId", "traceId", "counter", "count")
    VALUES (${tenantId}::uuid, ${traceId}, ${counter}, 1)
    ON CONFLICT ("tenantId", "traceId", "counter")
    DO UPDATE SET "count" = "AgentTraceCounter"."count" + 1, "updatedAt" = (now() AT TIME ZONE 'UTC')`;
}
