import "server-only";
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { failure, type ToolOutcome } from "@/lib/domain/agent-protocol";
import { sqlPool } from "@/lib/server/db/pg";
import { sql, nowUtc } from "@/lib/server/db/sql";

// Budgets per trace (docs/design.md): total calls, identical repeated calls, errors. Counters live in
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
  const rows = (
    await sql<CounterRow>`
    WITH bumped AS (
      INSERT INTO "AgentTraceCounter" ("tenantId", "traceId", "counter", "count")
      VALUES (${tenantId}::uuid, ${traceId}, 'calls', 1), (${tenantId}::uuid, ${traceId}, ${repeat}, 1)
      ON CONFLICT ("tenantId", "traceId", "counter")
      DO UPDATE SET "count" = "AgentTraceCounter"."count" + 1, "updatedAt" = ${nowUtc}
      RETURNING "counter", "count"
    )
    SELECT "counter", "count" FROM bumped
    UNION ALL
    SELECT "counter", "count" FROM "AgentTraceCounter"
     WHERE "tenantId" = ${tenantId}::uuid AND "traceId" = ${traceId} AND "counter" IN ('errors', 'spent')
    UNION ALL
    SELECT 'policy:' || k, v FROM "AgentBudgetPolicy" p,
      LATERAL (VALUES ('calls', p."maxCallsPerTrace"), ('repeats', p."maxRepeatsPerTrace"), ('errors', p."maxErrorsPerTrace")) AS x(k, v)
     WHERE p."tenantId" = ${tenantId}::uuid`.execute(sqlPool())
  ).rows;
  const get = (name: string) => rows.find((r) => r.counter === name)?.count;
  const budget: Budget = {
    maxCallsPerTrace: get("policy:calls") ?? defaultBudget.maxCallsPerTrace,
    maxRepeatsPerTrace: get("policy:repeats") ?? defaultBudget.maxRepeatsPerTrace,
    maxErrorsPerTrace: get("policy:errors") ?? defaultBudget.maxErrorsPerTrace,
  };
  return traceDecision(tenantId, traceId, {
    budget,
    calls: get("calls") ?? 0,
    repeats: get(repeat) ?? 0,
    errors: get("errors") ?? 0,
    spent: (get("spent") ?? 0) > 0,
  });
}

type TraceCounts = { budget: Budget; calls: number; repeats: number; errors: number; spent: boolean };

/** The trace budget's rule over freshly bumped counters; marks the trace spent the first time it is over. */
async function traceDecision(tenantId: string, traceId: string, c: TraceCounts): Promise<ToolOutcome | null> {
  const { budget, calls, repeats, errors, spent } = c;
  let which: "calls" | "repeats" | "errors" | null = null;
  if (spent) which = null;
  else if (calls > budget.maxCallsPerTrace) which = "calls";
  else if (repeats > budget.maxRepeatsPerTrace) which = "repeats";
  else if (errors >= budget.maxErrorsPerTrace) which = "errors";
  if (!spent && !which) return null;

  if (!spent) await bump(tenantId, traceId, "spent");
  return failure(
    "limit_exceeded",
    "This conversation used up its tool budget. Stop calling tools and hand over to a human.",
    {
      budget: which ?? "spent",
      limits: {
        calls: budget.maxCallsPerTrace,
        identical_repeats: budget.maxRepeatsPerTrace,
        errors: budget.maxErrorsPerTrace,
      },
    },
  );
}

/** Counts an error answer against the trace's error budget. */
export async function chargeError(tenantId: string, traceId: string): Promise<void> {
  await bump(tenantId, traceId, "errors");
}

/**
 * Gives one call back to the trace: its `calls` and identical-repeat counters (never below zero). For a
 * waiting get_refund_status whose proposal did not change (docs/design.md "Decisions reach the agent"): waiting
 * must not burn the conversation. The key and end-user windows keep the call: they bound the rate.
 */
export async function releaseTraceCall(tenantId: string, traceId: string, repeat: string): Promise<void> {
  await sql`
    UPDATE "AgentTraceCounter" SET "count" = greatest("count" - 1, 0), "updatedAt" = ${nowUtc}
     WHERE "tenantId" = ${tenantId}::uuid AND "traceId" = ${traceId} AND "counter" IN ('calls', ${repeat})`.execute(
    sqlPool(),
  );
}

// ---- budgets per time window (per agent key, per end user) ---------------------------------------
// Fixed windows of the tenant's `windowSeconds`; one row per (tenant, subject, window) bumped by a single
// INSERT … ON CONFLICT DO UPDATE … RETURNING, so the check and the increment are one atomic statement:
// N parallel calls over the budget let exactly the budget through, on any number of instances. They do not
// depend on trace headers: a call without one, or with a fresh X-Trace-Id each time, still counts.

export const defaultWindowBudget = {
  windowSeconds: 60,
  maxCallsPerKeyPerWindow: 600,
  maxCallsPerEndUserPerWindow: 60,
} as const;

export type WindowSubject = { kind: "agent_key"; keyId: string } | { kind: "end_user"; customerId: string };

type WindowRow = { count: number; limit: number; windowSeconds: number; retryAfter: number };

/** Counts this call in its subject's current window; `limit_exceeded` with `retry_after_seconds` when over. */
export async function chargeWindow(tenantId: string, subject: WindowSubject): Promise<ToolOutcome | null> {
  const key = subject.kind === "agent_key" ? `key:${subject.keyId}` : `user:${subject.customerId}`;
  const [row] = (
    await sql<WindowRow>`
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
      greatest(1, ceil(extract(epoch FROM "windowStart") + (SELECT w FROM win) - extract(epoch FROM now())))::int AS "retryAfter"`.execute(
      sqlPool(),
    )
  ).rows;
  if (!row || row.count <= row.limit) return null;
  return windowLimited(subject.kind, row.retryAfter, { calls: row.limit, window_seconds: row.windowSeconds });
}

function windowLimited(
  kind: WindowSubject["kind"],
  retryAfter: number,
  limits: { calls: number; window_seconds: number },
): ToolOutcome {
  const who = kind === "agent_key" ? "this agent" : "this customer";
  return failure(
    "limit_exceeded",
    `Too many tool calls for ${who} right now. Stop calling tools; tell the customer to try again later or hand over to a human.`,
    {
      budget: kind === "agent_key" ? "agent_key_window" : "end_user_window",
      retry_after_seconds: retryAfter,
      limits,
    },
  );
}

async function bump(tenantId: string, traceId: string, counter: string): Promise<void> {
  await sql`
    INSERT INTO "AgentTraceCounter" ("tenantId", "traceId", "counter", "count")
    VALUES (${tenantId}::uuid, ${traceId}, ${counter}, 1)
    ON CONFLICT ("tenantId", "traceId", "counter")
    DO UPDATE SET "count" = "AgentTraceCounter"."count" + 1, "updatedAt" = ${nowUtc}`.execute(sqlPool());
}

// ---- every budget of one call in one statement ------------------------------------------------------

export type ChargeInput = {
  keyId: string;
  traceId: string;
  /** repeatKey(name, args) */
  repeat: string;
  /** The verified customer when the call gets as far as the end-user window (valid envelope, tool,
   *  arguments and token); null otherwise — their window is then not charged, as before. */
  customerId: string | null;
};

export type ChargeResult = {
  /** `limit_exceeded` of the agent key's window (checked first; nothing else was charged then). */
  key: ToolOutcome | null;
  /** `limit_exceeded` of the trace budget (the end-user window was not charged then). */
  trace: ToolOutcome | null;
  /** `limit_exceeded` of the end user's window (null when not charged or within budget). */
  endUser: ToolOutcome | null;
};

type ChargeRow = {
  keyCount: number;
  keyLimit: number;
  keyRetryAfter: number;
  windowSeconds: number;
  calls: number | null;
  repeats: number | null;
  errors: number | null;
  spent: number | null;
  maxCalls: number;
  maxRepeats: number;
  maxErrors: number;
  userCount: number | null;
  userLimit: number;
  userRetryAfter: number | null;
};

/**
 * One round trip for every budget of a call, with the same rules and order as chargeWindow (agent key) →
 * chargeCall (trace) → chargeWindow (end user): the trace counters are bumped only when the key's window
 * let the call through, the end user's window only when the trace budget did too (data-modifying CTEs that
 * read each other's RETURNING rows, so each check and increment stays one atomic upsert). Outside the call's
 * transaction on purpose, like the others: a call that fails or rolls back still counts.
 */
export async function chargeBudgets(tenantId: string, input: ChargeInput): Promise<ChargeResult> {
  const d = { ...defaultBudget, ...defaultWindowBudget };
  const [row] = (
    await sql<ChargeRow>`
    WITH p AS (
      SELECT coalesce(max(b."windowSeconds"), ${d.windowSeconds}) AS w,
             coalesce(max(b."maxCallsPerKeyPerWindow"), ${d.maxCallsPerKeyPerWindow}) AS key_lim,
             coalesce(max(b."maxCallsPerEndUserPerWindow"), ${d.maxCallsPerEndUserPerWindow}) AS user_lim,
             coalesce(max(b."maxCallsPerTrace"), ${d.maxCallsPerTrace}) AS max_calls,
             coalesce(max(b."maxRepeatsPerTrace"), ${d.maxRepeatsPerTrace}) AS max_repeats,
             coalesce(max(b."maxErrorsPerTrace"), ${d.maxErrorsPerTrace}) AS max_errors
        FROM "AgentBudgetPolicy" b WHERE b."tenantId" = ${tenantId}::uuid
    ), win AS (
      SELECT to_timestamp(floor(extract(epoch FROM now()) / p.w) * p.w) AT TIME ZONE 'UTC' AS start, p.* FROM p
    ), k AS (
      INSERT INTO "AgentWindowCounter" ("tenantId", "subject", "windowStart", "count")
      SELECT ${tenantId}::uuid, ${`key:${input.keyId}`}, win.start, 1 FROM win
      ON CONFLICT ("tenantId", "subject", "windowStart") DO UPDATE SET "count" = "AgentWindowCounter"."count" + 1
      RETURNING "count", "windowStart"
    ), tr AS (
      INSERT INTO "AgentTraceCounter" ("tenantId", "traceId", "counter", "count")
      SELECT ${tenantId}::uuid, ${input.traceId}, x.c, 1
        FROM k, win, (VALUES ('calls'), (${input.repeat})) AS x(c)
       WHERE k."count" <= win.key_lim
      ON CONFLICT ("tenantId", "traceId", "counter")
      DO UPDATE SET "count" = "AgentTraceCounter"."count" + 1, "updatedAt" = ${nowUtc}
      RETURNING "counter", "count"
    ), t AS (
      SELECT (SELECT "count" FROM tr WHERE "counter" = 'calls') AS calls,
             (SELECT "count" FROM tr WHERE "counter" = ${input.repeat}) AS repeats,
             (SELECT "count" FROM "AgentTraceCounter" WHERE "tenantId" = ${tenantId}::uuid AND "traceId" = ${input.traceId} AND "counter" = 'errors') AS errors,
             (SELECT "count" FROM "AgentTraceCounter" WHERE "tenantId" = ${tenantId}::uuid AND "traceId" = ${input.traceId} AND "counter" = 'spent') AS spent
    ), u AS (
      INSERT INTO "AgentWindowCounter" ("tenantId", "subject", "windowStart", "count")
      SELECT ${tenantId}::uuid, ${`user:${input.customerId ?? ""}`}, win.start, 1 FROM win, t
       WHERE ${input.customerId}::text IS NOT NULL
         AND t.calls IS NOT NULL AND coalesce(t.spent, 0) <= 0
         AND t.calls <= win.max_calls AND t.repeats <= win.max_repeats AND coalesce(t.errors, 0) < win.max_errors
      ON CONFLICT ("tenantId", "subject", "windowStart") DO UPDATE SET "count" = "AgentWindowCounter"."count" + 1
      RETURNING "count", "windowStart"
    )
    SELECT k."count"::int AS "keyCount", win.key_lim::int AS "keyLimit", win.w::int AS "windowSeconds",
           greatest(1, ceil(extract(epoch FROM k."windowStart") + win.w - extract(epoch FROM now())))::int AS "keyRetryAfter",
           t.calls::int AS calls, t.repeats::int AS repeats, t.errors::int AS errors, t.spent::int AS spent,
           win.max_calls::int AS "maxCalls", win.max_repeats::int AS "maxRepeats", win.max_errors::int AS "maxErrors",
           u."count"::int AS "userCount", win.user_lim::int AS "userLimit",
           greatest(1, ceil(extract(epoch FROM u."windowStart") + win.w - extract(epoch FROM now())))::int AS "userRetryAfter"
      FROM k CROSS JOIN win CROSS JOIN t LEFT JOIN u ON true`.execute(sqlPool())
  ).rows;
  if (!row) throw new Error("budget statement returned no row");
  const limits = (n: number) => ({ calls: n, window_seconds: row.windowSeconds });
  if (row.keyCount > row.keyLimit) {
    return { key: windowLimited("agent_key", row.keyRetryAfter, limits(row.keyLimit)), trace: null, endUser: null };
  }
  const trace = await traceDecision(tenantId, input.traceId, {
    budget: { maxCallsPerTrace: row.maxCalls, maxRepeatsPerTrace: row.maxRepeats, maxErrorsPerTrace: row.maxErrors },
    calls: row.calls ?? 0,
    repeats: row.repeats ?? 0,
    errors: row.errors ?? 0,
    spent: (row.spent ?? 0) > 0,
  });
  if (trace) return { key: null, trace, endUser: null };
  const endUser =
    row.userCount !== null && row.userCount > row.userLimit
      ? windowLimited("end_user", row.userRetryAfter ?? 1, limits(row.userLimit))
      : null;
  return { key: null, trace: null, endUser };
}
