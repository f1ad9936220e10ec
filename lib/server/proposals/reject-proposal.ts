import "server-only";
import { randomUUID } from "node:crypto";
import { proposalStatus, reviewerRefusal } from "@/lib/domain/proposal-state";
import { parseInput } from "@/lib/domain/validation";
import type { RejectResult } from "@/lib/schemas/proposal-dto";
import { assertCan } from "@/lib/domain/permissions";
import { rejectProposalInput, type RejectProposalInput } from "@/lib/schemas/proposals";
import { db, type Tx } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { recordStaffEvent } from "@/lib/server/audit/record-event";
import type { Actor } from "@/lib/server/auth/actor";
import { closePending, lockProposal, releaseOwnClaim } from "./proposal-guards";
import { decisionError, refuse, refuseHashMismatch, type Decision } from "./decision";
import { reviewerTextScrubber } from "./scrub-reviewer-text";

/**
 * A reviewer rejects a pending proposal with a message for the customer (stored as `rejectionReason`; the
 * agent reads it through get_refund_status) and an optional internal note for staff only (never returned
 * to the agent; the audit event records only that one was written, not its text), both scrubbed of personal
 * data before they are stored. Guarded like approval:
 * row lock, state, the hash the reviewer saw. Who and when are stored with it.
 */
export async function rejectProposal(actor: Actor, raw: unknown): Promise<RejectResult> {
  assertCan(actor.roles, "proposal:decide");
  const input = parseInput(rejectProposalInput, raw, "The rejection request is malformed.");
  const traceId = randomUUID().replace(/-/g, "");
  const decision = await db().$transaction((tx) => decide(tx, actor, input, traceId));
  if (!decision.ok) throw decisionError(decision);
  return decision.value;
}

async function decide(
  tx: Tx,
  actor: Actor,
  input: RejectProposalInput,
  traceId: string,
): Promise<Decision<RejectResult>> {
  const action = "proposal:reject";
  const p = await lockProposal(tx, actor.tenantId, input.proposalId);
  if (!p) return refuse(tx, actor, traceId, null, "not_found", "No such proposal.", undefined, action);
  const ref = { id: p.id, hash: p.hash };
  const refusal = reviewerRefusal(p.status, "reject");
  if (refusal) return refuse(tx, actor, traceId, ref, refusal.code, refusal.message, { status: p.status }, action);
  if (input.hash !== p.hash) return refuseHashMismatch(tx, actor, traceId, ref, "reject", action);
  const now = new Date();
  // Reviewer text is free text: personal data in it is masked before it is stored, like a support ticket's
  // summary (the agent reads the masked message; the audit writer scrubs its own copy the same way).
  const scrub = await reviewerTextScrubber(tx, actor.tenantId, p.order.customerId);
  const moved = await closePending(tx, p.id, {
    status: proposalStatus.rejected,
    rejectionReason: scrub(input.customerMessage),
    rejectionInternalNote: input.internalNote === null ? null : scrub(input.internalNote),
    rejectedByStaffId: actor.userId,
    decidedAt: now,
  });
  if (!moved) throw new Error("proposal changed state under its row lock");
  const claimReleased = await releaseOwnClaim(tx, p.id, actor.userId);
  // (p.tenantId is the actor's: lockProposal finds proposals of the actor's tenant only.)
  await recordStaffEvent(sqlOf(tx), actor, {
    traceId,
    action,
    outcome: "ok",
    proposal: ref,
    // The customer message is free text: the audit writer scrubs personal data from it before storing.
    // The internal note stays out of the log entirely (staff read it on the proposal page only).
    data: {
      reason: input.customerMessage,
      internalNote: input.internalNote !== null,
      agentTraceId: p.traceId,
      ...(claimReleased ? { claimReleased } : {}),
    },
    redaction: { clear: ["agentTraceId", "internalNote", "claimReleased"] },
  });
  return { ok: true, value: { proposalId: p.id, status: proposalStatus.rejected } };
}
