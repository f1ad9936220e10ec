import "server-only";
import { randomUUID } from "node:crypto";
import { AppError, type ErrorCode } from "@/lib/domain/outcome";
import { proposalStatus, refusalCodeFor, type ReviewerAction } from "@/lib/domain/proposal-state";
import { type Tx } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { recordStaffEvent } from "@/lib/server/audit/record-event";
import type { Actor } from "@/lib/server/auth/actor";
import { closePending, lockProposal } from "./proposal-guards";
import { transaction } from "@/lib/server/db/transaction";

/**
 * The result of a decision taken inside a transaction. A refusal is *returned*, not thrown, so the
 * transaction still commits what the refusal itself changed (a proposal found expired or invalidated)
 * together with the audit event of the denied attempt; the caller throws after the commit.
 */
export type Decision<T> = { ok: true; value: T } | Refusal;

type Refusal = { ok: false; error: { code: ErrorCode; message: string; details?: Record<string, unknown> } };
type ProposalRef = { id: string; hash: string };

/** Why a decision on a proposal whose order changed was refused (approve and edit). */
export const ORDER_CHANGED =
  "The order changed since this proposal was prepared, so it was invalidated. Re-prepare it from current data.";

/**
 * The refusals of one decision, bound to its transaction, its caller, its trace and the audit action the
 * denied attempt is recorded under (`proposal:approve`, `proposal:reject`, …): each refusal then names only
 * the proposal, the code, the message and the details.
 */
export function refusals(tx: Tx, actor: Actor, traceId: string, action: string, requestTraceId?: string) {
  const refuse = async (
    proposal: ProposalRef | null,
    code: ErrorCode,
    message: string,
    details?: Record<string, unknown>,
  ): Promise<Refusal> => {
    await recordStaffEvent(sqlOf(tx), actor, {
      traceId,
      action,
      outcome: code,
      proposal,
      data: {
        ...(details ?? {}),
        ...(requestTraceId && requestTraceId !== traceId ? { requestTrace: requestTraceId } : {}),
      },
      redaction: { clear: ["reason", "status", "expiresAt", "usedMinor", "limitMinor", "requestTrace"] },
    });
    return { ok: false, error: { code, message, details } };
  };
  return {
    refuse,
    /** The reviewer presented a hash other than the proposal's: refused, nothing changes (reload and review again). */
    hashMismatch(proposal: ProposalRef, verb: ReviewerAction): Promise<Refusal> {
      const message = `The hash you sent to ${verb} is not this proposal's hash. Reload the proposal and review it again.`;
      return refuse(proposal, "invalid_arguments", message, { reason: "hash_mismatch" });
    },
    /**
     * The proposal can no longer be decided as it stands (its order changed, or its stored row no longer
     * hashes to its hash): it becomes `invalidated` — if still pending, by a guarded UPDATE — and the decision
     * is refused with `reason`. Both commit with the refusal's audit event.
     */
    async invalidate(proposal: ProposalRef, reason: string, message: string, now: Date): Promise<Refusal> {
      await closePending(tx, proposal.id, {
        status: proposalStatus.invalidated,
        invalidationReason: reason,
        decidedAt: now,
      });
      return refuse(proposal, refusalCodeFor(proposalStatus.invalidated), message, { reason });
    },
  };
}

export function decisionError(d: Refusal): AppError {
  return new AppError(d.error.code, d.error.message, d.error.details);
}

export type Refusals = ReturnType<typeof refusals>;
export type LockedProposal = NonNullable<Awaited<ReturnType<typeof lockProposal>>>;

/**
 * What a decision works with: its transaction, the locked proposal, its reference, refusals, the trace its events
 * belong to — the proposal's own (the agent's request that prepared it), so an export of that trace holds the
 * human decision — and the reviewer's request trace, kept as a link (`requestTrace` in the event's data).
 */
export type DecisionScope = {
  tx: Tx;
  p: LockedProposal;
  ref: ProposalRef;
  traceId: string;
  requestTraceId: string;
  no: Refusals;
};

/**
 * One decision on one proposal of the actor's tenant, in one transaction: the proposal is locked first
 * (another tenant's is simply not found), the refusals are recorded under `action`, and a refusal is thrown
 * only after the commit, so what the refusal changed and its audit event are kept. The events go to the proposal's
 * trace; the request's own trace id (new unless the caller has one) is kept as their `requestTrace` link.
 */
export async function decideOnProposal<T>(
  actor: Actor,
  on: { proposalId: string; action: string; traceId?: string },
  decide: (scope: DecisionScope) => Promise<Decision<T>>,
  options?: { maxWait: number; timeout: number },
): Promise<T> {
  const traceId = on.traceId ?? randomUUID().replace(/-/g, "");
  const decision = await transaction(async (tx): Promise<Decision<T>> => {
    const p = await lockProposal(tx, actor.tenantId, on.proposalId);
    if (!p) return refusals(tx, actor, traceId, on.action).refuse(null, "not_found", "No such proposal.");
    const no = refusals(tx, actor, p.traceId, on.action, traceId);
    return decide({ tx, p, ref: { id: p.id, hash: p.hash }, traceId: p.traceId, requestTraceId: traceId, no });
  }, options);
  if (!decision.ok) throw decisionError(decision);
  return decision.value;
}
