import "server-only";
import { AppError, type ErrorCode } from "@/lib/domain/outcome";
import { proposalStatus, refusalCodeFor, type ReviewerAction } from "@/lib/domain/proposal-state";
import type { Tx } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { recordStaffEvent } from "@/lib/server/audit/record-event";
import type { Actor } from "@/lib/server/auth/actor";
import { closePending } from "./proposal-guards";

/**
 * The result of a decision taken inside a transaction. A refusal is *returned*, not thrown, so the
 * transaction still commits what the refusal itself changed (a proposal found expired or invalidated)
 * together with the audit event of the denied attempt; the caller throws after the commit.
 */
export type Decision<T> = { ok: true; value: T } | Refusal;

export async function refuse(
  tx: Tx,
  actor: Actor,
  traceId: string,
  proposal: { id: string; hash: string } | null,
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
  action = "proposal:approve",
): Promise<Refusal> {
  await recordStaffEvent(sqlOf(tx), actor, {
    traceId,
    action,
    outcome: code,
    proposal,
    data: details ?? {},
    redaction: { clear: ["reason", "status", "expiresAt", "usedMinor", "limitMinor"] },
  });
  return { ok: false, error: { code, message, details } };
}

type Refusal = { ok: false; error: { code: ErrorCode; message: string; details?: Record<string, unknown> } };

/** Why a decision on a proposal whose order changed was refused (approve and edit). */
export const ORDER_CHANGED =
  "The order changed since this proposal was prepared, so it was invalidated. Re-prepare it from current data.";

/** The reviewer presented a hash other than the proposal's: refused, nothing changes (reload and review again). */
export function refuseHashMismatch(
  tx: Tx,
  actor: Actor,
  traceId: string,
  proposal: { id: string; hash: string },
  verb: ReviewerAction,
  action = `proposal:${verb}`,
): Promise<Refusal> {
  const message = `The hash you sent to ${verb} is not this proposal's hash. Reload the proposal and review it again.`;
  return refuse(tx, actor, traceId, proposal, "invalid_arguments", message, { reason: "hash_mismatch" }, action);
}

/**
 * The proposal can no longer be decided as it stands (its order changed, or its stored row no longer
 * hashes to its hash): it becomes `invalidated` — if still pending, by a guarded UPDATE — and the decision
 * is refused with `reason`. Both commit with the refusal's audit event.
 */
export async function invalidateAndRefuse(
  tx: Tx,
  actor: Actor,
  traceId: string,
  proposal: { id: string; hash: string },
  reason: string,
  message: string,
  now: Date,
  action = "proposal:approve",
): Promise<Refusal> {
  await closePending(tx, proposal.id, {
    status: proposalStatus.invalidated,
    invalidationReason: reason,
    decidedAt: now,
  });
  return refuse(tx, actor, traceId, proposal, refusalCodeFor(proposalStatus.invalidated), message, { reason }, action);
}

export function decisionError(d: Refusal): AppError {
  return new AppError(d.error.code, d.error.message, d.error.details);
}
