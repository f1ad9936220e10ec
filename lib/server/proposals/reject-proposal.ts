import "server-only";
import { proposalStatus, reviewerRefusal } from "@/lib/domain/proposal-state";
import { parseInput } from "@/lib/domain/validation";
import type { RejectResult } from "@/lib/schemas/proposal-dto";
import { assertCan } from "@/lib/domain/permissions";
import { rejectProposalInput, type RejectProposalInput } from "@/lib/schemas/proposals";
import { sqlOf } from "@/lib/server/db/sql";
import { recordStaffEvent } from "@/lib/server/audit/record-event";
import type { Actor } from "@/lib/server/auth/actor";
import { closePending, releaseOwnClaim } from "./proposal-guards";
import { decideOnProposal, type Decision, type DecisionScope } from "./decision";
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
  return decideOnProposal(actor, { proposalId: input.proposalId, action: "proposal:reject" }, (scope) =>
    decide(scope, actor, input),
  );
}

async function decide(
  { tx, p, ref, traceId, requestTraceId, no }: DecisionScope,
  actor: Actor,
  input: RejectProposalInput,
): Promise<Decision<RejectResult>> {
  const refusal = reviewerRefusal(p.status, "reject");
  if (refusal) return no.refuse(ref, refusal.code, refusal.message, { status: p.status });
  if (input.hash !== p.hash) return no.hashMismatch(ref, "reject");
  const now = new Date();
  // Reviewer text is free text: personal data in it is masked before it is stored, like a support ticket's
  // summary (the agent reads the masked message; the audit writer scrubs its own copy the same way).
  const scrub = await reviewerTextScrubber(tx, actor.tenantId, p.order?.customerId ?? p.customerId);
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
    action: "proposal:reject",
    outcome: "ok",
    proposal: ref,
    // The customer message is free text: the audit writer scrubs personal data from it before storing.
    // The internal note stays out of the log entirely (staff read it on the proposal page only).
    data: {
      reason: input.customerMessage,
      internalNote: input.internalNote !== null,
      requestTrace: requestTraceId,
      ...(claimReleased ? { claimReleased } : {}),
    },
    redaction: { clear: ["requestTrace", "internalNote", "claimReleased"] },
  });
  return { ok: true, value: { proposalId: p.id, status: proposalStatus.rejected } };
}
