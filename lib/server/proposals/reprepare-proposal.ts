import "server-only";
import { randomUUID } from "node:crypto";
import { canBeReprepared, effectiveStatus, proposalStatus as S } from "@/lib/domain/proposal-state";
import { parseInput } from "@/lib/domain/validation";
import { assertCan } from "@/lib/domain/permissions";
import { reprepareProposalInput } from "@/lib/schemas/proposals";
import { db } from "@/lib/server/db/client";
import type { Actor } from "@/lib/server/auth/actor";
import { closePending, lockProposal } from "./proposal-guards";
import { createSupersedingProposal, recordSupersede } from "./create-superseding-proposal";
import { decisionError, refuse, type Decision } from "./decision";

const messages = {
  nothing_left_to_refund: "Nothing is left to refund on this order.",
  no_payment: "The order has no payment that can be refunded.",
  already_superseded: "This proposal was already replaced by a newer one.",
  another_pending: "Another proposal for this order already awaits approval.",
} as const;

/**
 * Ops or a reviewer re-prepares an expired or invalidated proposal from current data: a new proposal
 * (new id and hash, `supersedes` recorded) whose requester is the re-preparer, so another reviewer
 * must approve it. The old one is never revived.
 */
export async function reprepareProposal(
  actor: Actor,
  raw: unknown,
): Promise<{ proposalId: string; supersedes: string }> {
  assertCan(actor.roles, "proposal:reprepare");
  const input = parseInput(reprepareProposalInput, raw, "The request is malformed.");
  const traceId = randomUUID().replace(/-/g, "");
  const action = "proposal:reprepare";
  const decision: Decision<{ proposalId: string; supersedes: string }> = await db().$transaction(async (tx) => {
    const old = await lockProposal(tx, actor.tenantId, input.proposalId);
    if (!old) return refuse(tx, actor, traceId, null, "not_found", "No such proposal.", undefined, action);
    const now = new Date();
    if (effectiveStatus(old, now) !== old.status) {
      await closePending(tx, old.id, { status: S.expired, decidedAt: now });
      old.status = S.expired;
    }
    if (!canBeReprepared(old, now)) {
      return refuse(
        tx,
        actor,
        traceId,
        { id: old.id, hash: old.hash },
        "permission_denied",
        "Only an expired or invalidated proposal can be re-prepared.",
        { status: old.status },
        action,
      );
    }
    const made = await createSupersedingProposal(tx, old, {
      wantedMinor: old.amountMinor,
      requestedByStaffId: actor.userId,
      now,
    });
    if (!made.ok) {
      return refuse(
        tx,
        actor,
        traceId,
        { id: old.id, hash: old.hash },
        "permission_denied",
        messages[made.reason],
        { reason: made.reason },
        action,
      );
    }
    await recordSupersede(tx, actor, action, old, made.proposal);
    return { ok: true, value: { proposalId: made.proposal.id, supersedes: old.id } };
  });
  if (!decision.ok) throw decisionError(decision);
  return decision.value;
}
