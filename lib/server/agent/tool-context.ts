import "server-only";
import type { ToolOutcome } from "@/lib/domain/agent-protocol";
import type { Sql } from "@/lib/server/db/sql";
import type { AgentCaller } from "./authenticate-agent-key";

/** What every tool use case receives: the authenticated agent and the verified end user (never the model's word). */
export type ToolContext = {
  caller: AgentCaller;
  /** The verified end user's customer id, or null when anonymous. */
  customerId: string | null;
  traceId: string;
  /** How a wait before the answer ended (get_refund_status with wait_seconds); absent when none was asked. */
  wait?: WaitReport;
  /** What the handler's `outside` step returned, for `run` to narrow (absent when the handler has none). */
  outside?: unknown;
};

/**
 * A wait before a tool answers (outside any transaction). `unchanged`: the wait ran and what the agent can
 * see did not change — such a call is given back to the trace's budget (lib/server/agent/budgets.ts).
 */
export type WaitReport = {
  outcome: "changed" | "timeout" | "aborted" | "too_many_waiters" | "unavailable" | "nothing_to_wait_for";
  unchanged: boolean;
};

export type HandlerResult = {
  outcome: ToolOutcome;
  proposal?: { id: string; hash: string } | null;
  /** Extra details for the audit event (redacted by the writer). */
  audit?: Record<string, unknown>;
  /** Personal strings the writer must scrub from free text (the customer's name and email). */
  knownPersonal?: string[];
  /** Keyed fingerprints the use case made itself (auditFingerprint) and put in `audit`: stored as they are. */
  madeFingerprints?: (string | null)[];
};

/** How one tool runs on the gateway: the gateway's own tools (tool-handlers.ts) and every action kind's alike. */
export type ToolHandler = {
  /**
   * The use case, on the gateway's one transaction (withPgTransaction, lib/server/db/pg.ts) as a handle of the
   * typed SQL layer (lib/server/db/sql.ts): its effect and its audit event commit together.
   */
  run: (tx: Sql, input: never, ctx: ToolContext) => Promise<HandlerResult>;
  /** Whether it needs a verified customer (anonymous end users may not look at orders or money). */
  needsCustomer: boolean;
  /** The argument fields allowed to stay in clear in the audit trail. */
  auditClear: readonly string[];
  /** Runs before the transaction, holding nothing: waits for a change worth answering (undefined = no wait). */
  wait?: (input: never, ctx: ToolContext, signal?: AbortSignal) => Promise<WaitReport | undefined>;
  /**
   * Runs before the transaction, holding no connection and no lock: a call outside our database (a declared
   * action's derive on the tenant's shop), so a slow answer never keeps a pooled connection or a transaction open.
   * Its result reaches `run` as `ctx.outside`; `run` checks again whatever may have changed meanwhile.
   */
  outside?: (input: never, ctx: ToolContext) => Promise<unknown>;
};

/**
 * Interactive-transaction limits for gateway calls. Prisma's defaults (2 s to get a connection, 5 s in
 * total) turn a burst of concurrent calls on a small pool into spurious internal_errors; these leave room
 * for queueing while still bounding a stuck call.
 */
export const GATEWAY_TX = { maxWait: 10_000, timeout: 15_000 } as const;
