import "server-only";
// MCP tasks (docs/agent-api.md "Waiting for a human"; MCP 2025-11-25 "Tasks"): a prepare tool called with `task`
// answers at once with a task, which stays `working` while a person decides and the action runs, and ends with the
// same outcome envelope `get_action_status` would give. Kept in PostgreSQL (McpTask), so any instance answers
// tasks/get, tasks/result, tasks/list and tasks/cancel; the SDK's protocol runs those methods on this store.
//
// One store per request, bound to the agent key that authenticated it: another key's task — of this tenant or
// another — is as missing as one that never was. While a task is open its status is read from its proposal
// (get_action_status, with no tool call: polling a task never spends the trace's budgets and writes no audit
// event); the first read that finds it ended writes the final status and result (a guarded UPDATE, once).
// tasks/cancel withdraws the proposal while it still awaits a person (audited `proposal:withdraw`); once approved,
// the action cannot be called back and the cancel is refused.
import { randomUUID } from "node:crypto";
import { McpError, ErrorCode, type CallToolResult, type Result, type Task } from "@modelcontextprotocol/sdk/types.js";
import type { CreateTaskOptions, TaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import { isErrorOutcome, outcomeContent, type ToolOutcome } from "@/lib/domain/agent-protocol";
import { proposalStatus } from "@/lib/domain/proposal-state";
import { withPgTransaction } from "@/lib/server/db/pg";
import { nowUtc, sql, type Sql } from "@/lib/server/db/sql";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import { getActionStatus } from "@/lib/server/proposals/get-action-status";
import { GATEWAY_TX } from "./tool-context";
import type { AgentCaller } from "./authenticate-agent-key";

/** How long a task stays retrievable when the client asks for no TTL, and the most it may ask for. */
export const TASK_TTL_MS = { default: 24 * 3600_000, max: 7 * 24 * 3600_000, min: 60_000 } as const;
/** How often the client should poll: while a person decides, and while the action runs. */
export const TASK_POLL_MS = { review: 3_000, running: 2_000 } as const;
/** The invalidation reason of a proposal withdrawn through tasks/cancel. */
export const WITHDRAWN = "withdrawn_by_agent";

type Status = Task["status"];
type Row = {
  id: string;
  proposalId: string | null;
  customerId: string | null;
  tool: string;
  traceId: string;
  status: Status;
  statusMessage: string | null;
  result: unknown;
  ttlMs: number;
  pollIntervalMs: number;
  createdAt: Date;
  updatedAt: Date;
};

const ended = (s: Status) => s === "completed" || s === "failed" || s === "cancelled";

/** A tool outcome as the CallToolResult MCP carries: the JSON envelope as text and as structured content. */
export function callToolResult(outcome: ToolOutcome, traceId: string): CallToolResult {
  const text = outcomeContent(outcome, traceId);
  return {
    content: [{ type: "text", text }],
    isError: isErrorOutcome(outcome),
    structuredContent: JSON.parse(text) as Record<string, unknown>,
  };
}

/**
 * Where an outcome leaves the task: open while a person decides or the action runs; ended with the envelope
 * otherwise — `completed` for a success, `failed` for an error result (MCP: a tool result with isError), whose
 * result tasks/result still answers (the rejection's message, the superseding proposal…).
 */
export function taskStateOf(outcome: ToolOutcome): { status: Status; message: string; pollMs: number } {
  if (outcome.code === "approval_required")
    return { status: "working", message: "Awaiting a person's decision.", pollMs: TASK_POLL_MS.review };
  if (outcome.code === "result_pending") {
    const phase = "result" in outcome ? outcome.result.phase : undefined;
    const message =
      phase === "in_doubt"
        ? "Approved and sent; its outcome is being confirmed."
        : phase === "awaiting_payout"
          ? "Approved; the shop's staff carry it out by hand."
          : "Approved; being carried out.";
    return { status: "working", message, pollMs: TASK_POLL_MS.running };
  }
  if (isErrorOutcome(outcome)) return { status: "failed", message: outcome.error.message, pollMs: 0 };
  return { status: "completed", message: "Done.", pollMs: 0 };
}

const notFound = (taskId: string) => new McpError(ErrorCode.InvalidParams, `Task not found: ${taskId}`);

export class PgTaskStore implements TaskStore {
  constructor(private readonly caller: AgentCaller) {}

  /**
   * The task of a task-augmented prepare call, made after the call answered: open on its proposal while that awaits a
   * person or runs, ended at once otherwise (a refusal, an answer with nothing to wait for).
   */
  async open(tool: string, traceId: string, outcome: ToolOutcome, ttl: number | null | undefined): Promise<Task> {
    const state = taskStateOf(outcome);
    const proposalId =
      state.status === "working" && "result" in outcome && typeof outcome.result.proposal_id === "string"
        ? outcome.result.proposal_id
        : null;
    const ttlMs = Math.min(TASK_TTL_MS.max, Math.max(TASK_TTL_MS.min, ttl ?? TASK_TTL_MS.default));
    const id = randomUUID();
    const open = proposalId !== null;
    const { tenantId, keyId } = this.caller;
    await withPgTransaction(async (tx) => {
      await sql`
        INSERT INTO "McpTask" ("id", "tenantId", "agentKeyId", "proposalId", "customerId", "tool", "traceId", "status",
                               "statusMessage", "result", "ttlMs", "pollIntervalMs", "expiresAt")
        SELECT ${id}::uuid, ${tenantId}::uuid, ${keyId}::uuid, p."id", p."customerId", ${tool}, ${traceId},
               ${open ? "working" : state.status}, ${state.message},
               ${open ? null : JSON.stringify(callToolResult(outcome, traceId))}::jsonb, ${ttlMs},
               ${open ? state.pollMs : TASK_POLL_MS.review}, ${nowUtc} + make_interval(secs => ${ttlMs / 1000})
          FROM (SELECT 1) one
          LEFT JOIN "Proposal" p ON p."id" = ${proposalId}::uuid AND p."tenantId" = ${tenantId}::uuid`.execute(tx);
    }, GATEWAY_TX);
    const task = await this.getTask(id);
    if (!task) throw new Error("the task just made cannot be read");
    return task;
  }

  /** The key's task, unexpired, with its status brought up to date from its proposal. */
  async getTask(taskId: string): Promise<Task | null> {
    const row = await this.current(taskId);
    return row ? toTask(row) : null;
  }

  async getTaskResult(taskId: string): Promise<Result> {
    const row = await this.current(taskId);
    if (!row) throw notFound(taskId);
    if (row.result) return row.result as Result;
    // Not ended with a result (open, or cancelled): where the action stands now, as get_action_status answers.
    const live = await this.live(row);
    return callToolResult(live ?? gone(row), row.traceId);
  }

  /** The SDK calls this only for tasks it runs itself; this server's tasks end from their proposals. */
  async storeTaskResult(taskId: string, status: "completed" | "failed", result: Result): Promise<void> {
    const { numAffectedRows } = await withPgTransaction(
      (tx) =>
        sql`UPDATE "McpTask" SET "status" = ${status}, "result" = ${JSON.stringify(result)}::jsonb, "updatedAt" = ${nowUtc}
             WHERE "id" = ${taskId}::uuid AND "tenantId" = ${this.caller.tenantId}::uuid
               AND "agentKeyId" = ${this.caller.keyId}::uuid AND "status" IN ('working', 'input_required')`.execute(tx),
      GATEWAY_TX,
    );
    if (!numAffectedRows) throw notFound(taskId);
  }

  /**
   * tasks/cancel (the only status change a client makes): withdraws the proposal while it still awaits a person, in
   * one transaction with its audit event and the task's end. Approved, running or decided: refused, nothing changes.
   */
  async updateTaskStatus(taskId: string, status: Status, statusMessage?: string): Promise<void> {
    if (status !== "cancelled") throw new McpError(ErrorCode.InvalidParams, `A task cannot be set to ${status}.`);
    const { tenantId, keyId, channelSlug } = this.caller;
    await withPgTransaction(async (tx) => {
      // The task first (a guarded UPDATE: two cancels, one wins), then its proposal; a refusal throws, and the
      // rollback leaves both as they were.
      const [task] = (
        await sql<{ proposalId: string | null; traceId: string }>`
          UPDATE "McpTask" SET "status" = 'cancelled', "statusMessage" = ${statusMessage ?? "Withdrawn by the client."},
                 "updatedAt" = ${nowUtc}
           WHERE "id" = ${taskId}::uuid AND "tenantId" = ${tenantId}::uuid AND "agentKeyId" = ${keyId}::uuid
             AND "status" IN ('working', 'input_required') AND "expiresAt" > ${nowUtc}
          RETURNING "proposalId", "traceId"`.execute(tx)
      ).rows;
      if (!task) throw new McpError(ErrorCode.InvalidParams, `Task not found or already ended: ${taskId}`);
      if (!task.proposalId) return;
      const withdrawn = await withdraw(tx, tenantId, task.proposalId);
      if (!withdrawn)
        throw new McpError(
          ErrorCode.InvalidParams,
          "The action is no longer awaiting a decision (approved, being carried out or decided): it cannot be withdrawn.",
        );
      await recordAuditEvent(tx, {
        tenantId,
        traceId: task.traceId,
        actor: { type: "agent", id: keyId, authMethod: "agent_key" },
        action: "proposal:withdraw",
        outcome: "ok",
        proposal: withdrawn,
        channel: channelSlug,
        data: { via: "mcp_tasks_cancel", task_id: taskId },
        redaction: { clear: ["via", "task_id"] },
      });
    }, GATEWAY_TX);
  }

  /** The key's unexpired tasks, newest first, 50 a page; the cursor is the last task's id. */
  async listTasks(cursor?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    const { tenantId, keyId } = this.caller;
    if (cursor !== undefined && !/^[0-9a-f-]{36}$/i.test(cursor))
      throw new McpError(ErrorCode.InvalidParams, "Invalid cursor.");
    const rows = await withPgTransaction(
      async (tx) =>
        (
          await sql<{ id: string }>`
          SELECT t."id" FROM "McpTask" t
           WHERE t."tenantId" = ${tenantId}::uuid AND t."agentKeyId" = ${keyId}::uuid AND t."expiresAt" > ${nowUtc}
             AND (${cursor ?? null}::uuid IS NULL OR (t."createdAt", t."id") < (
                   SELECT c."createdAt", c."id" FROM "McpTask" c WHERE c."id" = ${cursor ?? null}::uuid))
           ORDER BY t."createdAt" DESC, t."id" DESC LIMIT 51`.execute(tx)
        ).rows,
      GATEWAY_TX,
    );
    const page = rows.slice(0, 50);
    const tasks: Task[] = [];
    for (const { id } of page) {
      const t = await this.getTask(id);
      if (t) tasks.push(t);
    }
    return { tasks, ...(rows.length > 50 ? { nextCursor: page.at(-1)!.id } : {}) };
  }

  /** Required by the SDK's interface; this server makes its tasks with `open`, after the prepare call answered. */
  async createTask(_options: CreateTaskOptions): Promise<Task> {
    throw new McpError(ErrorCode.InternalError, "Tasks are made by the prepare tools only.");
  }

  /** The row, unexpired and the key's, with an open task's status read from its proposal (and ended once, if it has). */
  private async current(taskId: string): Promise<Row | null> {
    if (!/^[0-9a-f-]{36}$/i.test(taskId)) return null;
    const row = await withPgTransaction(
      async (tx) =>
        (
          await sql<Row>`
          SELECT "id", "proposalId", "customerId", "tool", "traceId", "status", "statusMessage", "result", "ttlMs",
                 "pollIntervalMs", "createdAt", "updatedAt"
            FROM "McpTask"
           WHERE "id" = ${taskId}::uuid AND "tenantId" = ${this.caller.tenantId}::uuid
             AND "agentKeyId" = ${this.caller.keyId}::uuid AND "expiresAt" > ${nowUtc}`.execute(tx)
        ).rows[0],
      GATEWAY_TX,
    );
    if (!row || ended(row.status) || !row.proposalId) return row ?? null;
    const outcome = await this.live(row);
    if (!outcome) return row;
    const state = taskStateOf(outcome);
    if (state.status === "working") {
      return { ...row, status: "working", statusMessage: state.message, pollIntervalMs: state.pollMs };
    }
    const result = callToolResult(outcome, row.traceId);
    // Ended: written once; a concurrent reader that got there first wins, and both answer the same.
    await withPgTransaction(
      (tx) =>
        sql`UPDATE "McpTask" SET "status" = ${state.status}, "statusMessage" = ${state.message},
                   "result" = ${JSON.stringify(result)}::jsonb, "updatedAt" = ${nowUtc}
             WHERE "id" = ${row.id}::uuid AND "status" IN ('working', 'input_required')`.execute(tx),
      GATEWAY_TX,
    );
    return this.current(taskId);
  }

  /** What get_action_status answers for the task's proposal now (no tool call, no budget, no audit event). */
  private async live(row: Row): Promise<ToolOutcome | null> {
    if (!row.proposalId || !row.customerId) return null;
    const { outcome } = await withPgTransaction(
      (tx) =>
        getActionStatus(
          tx,
          { proposal_id: row.proposalId!, wait_seconds: 0 },
          { caller: this.caller, customerId: row.customerId, traceId: row.traceId },
        ),
      GATEWAY_TX,
    );
    return outcome;
  }
}

/** Withdraws a pending proposal (guarded: only while it awaits a person); its id and hash, or null. */
async function withdraw(tx: Sql, tenantId: string, proposalId: string): Promise<{ id: string; hash: string } | null> {
  const { rows } = await sql<{ id: string; hash: string }>`
    UPDATE "Proposal" SET "status" = ${proposalStatus.invalidated}::"ProposalStatus", "invalidationReason" = ${WITHDRAWN},
           "decidedAt" = ${nowUtc}, "updatedAt" = ${nowUtc}
     WHERE "id" = ${proposalId}::uuid AND "tenantId" = ${tenantId}::uuid
       AND "status" = ${proposalStatus.pendingApproval}::"ProposalStatus"
    RETURNING "id", "hash"`.execute(tx);
  return rows[0] ?? null;
}

function toTask(row: Row): Task {
  return {
    taskId: row.id,
    status: row.status,
    ...(row.statusMessage ? { statusMessage: row.statusMessage } : {}),
    ttl: row.ttlMs,
    ...(ended(row.status) ? {} : { pollInterval: row.pollIntervalMs }),
    createdAt: new Date(row.createdAt).toISOString(),
    lastUpdatedAt: new Date(row.updatedAt).toISOString(),
  };
}

/** A task whose proposal cannot be read (it cannot happen while rows are never deleted): said plainly. */
function gone(row: Row): ToolOutcome {
  return {
    code: "not_found",
    error: { message: `The action of task ${row.id} can no longer be read.`, proposal_id: row.proposalId },
  };
}
