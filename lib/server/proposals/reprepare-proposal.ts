import "server-only";
import { canBeReprepared, effectiveStatus, proposalStatus as S } from "@/lib/domain/proposal-state";
import { parseInput } from "@/lib/domain/validation";
import { assertCan } from "@/lib/domain/permissions";
import { reprepareProposalInput } from "@/lib/schemas/proposals";
import type { Actor } from "@/lib/server/auth/actor";
import { closePending } from "./proposal-guards";
import { createSupersedingProposal, recordSupersede } from "./create-superseding-proposal";
import { decideOnProposal } from "./decision";
import { asRefund } from "@/lib/domain/refund-row";

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
  const action = "proposal:reprepare";
  return decideOnProposal(actor, { proposalId: input.proposalId, action }, async ({ tx, p: locked, ref, no }) => {
    // Editing and re-preparing are the refund's (its amount, from its order); another kind's proposal is refused
    // with a stable code (its page offers neither), never narrowed into an error.
    if (locked.kind !== "refund")
      return no.refuse(ref, "invalid_arguments", "Only a refund proposal can be re-prepared here.", {
        reason: "kind_not_supported",
        kind: locked.kind,
      });
    const old = asRefund(locked);
    const now = new Date();
    if (effectiveStatus(old, now) !== old.status) {
      await closePending(tx, old.id, { status: S.expired, decidedAt: now });
      old.status = S.expired;
    }
    if (!canBeReprepared(old, now)) {
      const message = "Only an expired or invalidated proposal can be re-prepared.";
      return no.refuse(ref, "permission_denied", message, { status: old.status });
    }
    const made = await createSupersedingProposal(tx, old, {
      wantedMinor: old.amountMinor,
      requestedByStaffId: actor.userId,
      now,
    });
    if (!made.ok) return no.refuse(ref, "permission_denied", messages[made.reason], { reason: made.reason });
    await recordSupersede(tx, actor, action, old, made.proposal);
    return { ok: true, value: { proposalId: made.proposal.id, supersedes: old.id } };
  });
}
