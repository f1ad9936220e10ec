import "server-only";
import { proposalStatus as S, reviewerRefusal } from "@/lib/domain/proposal-state";
import { parseInput } from "@/lib/domain/validation";
import { assertCan } from "@/lib/domain/permissions";
import { editProposalAmountInput } from "@/lib/schemas/proposals";
import type { Actor } from "@/lib/server/auth/actor";
import { closePending, orderMismatch } from "./proposal-guards";
import { createSupersedingProposal, recordSupersede } from "./create-superseding-proposal";
import { decideOnProposal, ORDER_CHANGED } from "./decision";
import { asRefund } from "@/lib/domain/refund-row";

/**
 * Edit = supersede: a reviewer lowers the amount of a pending proposal (a partial refund). That
 * invalidates v1 and makes v2, re-derived and re-hashed, whose requester is the editor — so the editor
 * can never be v2's approver. The agent learns both through get_refund_status.
 */
export async function editProposalAmount(
  actor: Actor,
  raw: unknown,
): Promise<{ proposalId: string; supersedes: string; amountMinor: number }> {
  assertCan(actor.roles, "proposal:decide");
  const input = parseInput(editProposalAmountInput, raw, "The edit is malformed.");
  const action = "proposal:edit";
  return decideOnProposal(actor, { proposalId: input.proposalId, action }, async ({ tx, p: locked, ref, no }) => {
    // Editing and re-preparing are the refund's (its amount, from its order); another kind's proposal is refused
    // with a stable code (its page offers neither), never narrowed into an error.
    if (locked.kind !== "refund")
      return no.refuse(ref, "invalid_arguments", "Only a refund proposal can be edited here.", {
        reason: "kind_not_supported",
        kind: locked.kind,
      });
    const old = asRefund(locked);
    const now = new Date();
    const refusal = reviewerRefusal(old.expiresAt <= now ? S.expired : old.status, "edit");
    if (refusal) return no.refuse(ref, refusal.code, refusal.message, { status: old.status });
    if (input.hash !== old.hash) return no.hashMismatch(ref, "edit");
    if (input.amountMinor >= old.amountMinor) {
      const details = { reason: "not_lower", maxMinor: old.amountMinor - 1 };
      return no.refuse(ref, "invalid_arguments", "An edit can only lower the amount.", details);
    }
    const mismatch = await orderMismatch(tx, old);
    if (mismatch) return no.invalidate(ref, mismatch, ORDER_CHANGED, now);
    const closed = await closePending(tx, old.id, {
      status: S.invalidated,
      invalidationReason: "superseded_by_edit",
      decidedAt: now,
    });
    if (!closed) throw new Error("proposal changed state under its row lock");
    const made = await createSupersedingProposal(tx, old, {
      wantedMinor: input.amountMinor,
      requestedByStaffId: actor.userId,
      now,
    });
    if (!made.ok) throw new Error(`could not supersede an editable proposal: ${made.reason}`);
    await recordSupersede(tx, actor, action, old, made.proposal);
    return {
      ok: true,
      value: { proposalId: made.proposal.id, supersedes: old.id, amountMinor: made.proposal.amountMinor },
    };
  });
}
