import "server-only";
import {
  agentVisibleState,
  isProposalStatus,
  isWorthWaitingFor,
  proposalStatus,
  type ProposalStatus,
} from "@/lib/domain/proposal-state";
import type { ToolContext, WaitReport } from "@/lib/server/agent/tool-context";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { beginProposalWait } from "@/lib/server/realtime/proposal-changes";

type StateRow = {
  status: string;
  expiresAt: Date;
  executionStatus: string | null;
  followUpId: string | null;
  followUpStatus: string | null;
  followUpExpiresAt: Date | null;
  followUpExecutionStatus: string | null;
};

/** What a status tool asks for (get_refund_status, get_action_status): the proposal and how long to wait. */
export type ProposalWaitInput = { proposal_id: string; wait_seconds?: number | null };

/**
 * A status tool's `wait_seconds` (get_refund_status, get_action_status; any kind): holds the call (outside any
 * transaction, no connection held) until what the agent can see of the proposal changes, it expires, or the wait
 * ends. No polling: the realtime listener (lib/server/realtime) wakes it on the database's NOTIFY. The answer itself
 * is then read by the status tool as usual. Only the verified customer's own proposal is looked at (tenant and
 * customer in the WHERE); anything else answers at once (and the status tool says not_found).
 *
 * An action carried out in two steps (a cancellation and the refund that follows it, docs/action-kinds.md "Steps")
 * is watched as the status tool answers it: once its first step succeeded, through its follow-up — the wait moves to
 * the follow-up's changes, and ends when the follow-up's visible state changes (paid, in doubt, failed).
 */
export async function waitForProposalChange(
  input: ProposalWaitInput,
  ctx: ToolContext,
  signal?: AbortSignal,
): Promise<WaitReport | undefined> {
  const seconds = input.wait_seconds ?? 0;
  if (seconds <= 0 || !ctx.customerId) return undefined;
  const tenantId = ctx.caller.tenantId;
  const deadline = Date.now() + seconds * 1000;
  let seen: string | null = null;
  // The proposal whose changes wake this wait: the one asked about, or its follow-up once the first step succeeded.
  let watched = input.proposal_id;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) return { outcome: "timeout", unchanged: true };
    // Register first, read second: a change committed after the read wakes us (never lost in between).
    const wait = await beginProposalWait(tenantId, watched, left, signal);
    if ("refused" in wait) return { outcome: wait.refused, unchanged: false };
    const [row] = (
      await sql<StateRow>`
      SELECT p."status"::text AS "status", p."expiresAt", e."status"::text AS "executionStatus",
             f."id"::text AS "followUpId", f."status"::text AS "followUpStatus", f."expiresAt" AS "followUpExpiresAt",
             fe."status"::text AS "followUpExecutionStatus"
        FROM "Proposal" p LEFT JOIN "Execution" e ON e."proposalId" = p."id"
        LEFT JOIN "Proposal" f ON f."parentId" = p."id" AND f."tenantId" = p."tenantId"
        LEFT JOIN "Execution" fe ON fe."proposalId" = f."id"
       WHERE p."id" = ${input.proposal_id}::uuid AND p."tenantId" = ${tenantId}::uuid AND p."customerId" = ${ctx.customerId}`.execute(
        sqlPool(),
      )
    ).rows;
    const now = new Date();
    if (!row || !isProposalStatus(row.status)) {
      wait.cancel();
      return { outcome: "nothing_to_wait_for", unchanged: false };
    }
    const following =
      row.status === proposalStatus.succeeded && row.followUpId !== null && isProposalStatus(row.followUpStatus ?? "");
    const target = following ? row.followUpId! : input.proposal_id;
    if (target !== watched) {
      // The first step just succeeded: listen to the follow-up from now on, then read again.
      wait.cancel();
      watched = target;
      continue;
    }
    const state = following
      ? {
          status: row.followUpStatus as ProposalStatus,
          expiresAt: row.followUpExpiresAt!,
          executionStatus: row.followUpExecutionStatus,
        }
      : { status: row.status, expiresAt: row.expiresAt, executionStatus: row.executionStatus };
    const visible = agentVisibleState(state, now);
    seen ??= visible;
    if (visible !== seen) {
      wait.cancel();
      return { outcome: "changed", unchanged: false };
    }
    if (!isWorthWaitingFor(state, now)) {
      wait.cancel();
      return { outcome: "nothing_to_wait_for", unchanged: false };
    }
    // A pending proposal turns expired by the clock, not by a write: wake at its expiry too.
    const ended = await untilOrExpiry(
      wait.result,
      state.expiresAt.getTime() - now.getTime(),
      state.status === proposalStatus.pendingApproval,
    );
    if (ended === "expiry") {
      wait.cancel();
      return { outcome: "changed", unchanged: false };
    }
    if (ended.outcome === "aborted") return { outcome: "aborted", unchanged: false };
    if (ended.outcome === "timeout") return { outcome: "timeout", unchanged: true };
    // changed or resync: read again; a change the agent cannot see (sending → pending) keeps waiting.
  }
}

async function untilOrExpiry<T>(result: Promise<T>, msToExpiry: number, pending: boolean): Promise<T | "expiry"> {
  if (!pending) return result;
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<"expiry">(
    (resolve) => (timer = setTimeout(() => resolve("expiry"), Math.max(0, msToExpiry))),
  );
  try {
    return await Promise.race([result, expiry]);
  } finally {
    clearTimeout(timer);
  }
}
