import "server-only";
import { randomUUID } from "node:crypto";
import { proposalStatus as S, reviewerRefusal } from "@/lib/domain/proposal-state";
import { parseInput } from "@/lib/domain/validation";
import { assertCan } from "@/lib/domain/permissions";
import { editProposalAmountInput } from "@/lib/schemas/proposals";
import { db } from "@/lib/server/db/client";
import type { Actor } from "@/lib/server/auth/actor";
import { closePending, lockProposal, orderMismatch } from "./proposal-guards";
import { createSupersedingProposal, recordSupersede } from "./create-superseding-proposal";
import {
  decisionError,
  invalidateAndRefuse,
  ORDER_CHANGED,
  refuse,
  refuseHashMismatch,
  type Decision,
} from "./decision";

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
  const traceId = randomUUID().replace(/-/g, "");
  const action = "proposal:edit";
  const decision: Decision<{ proposalId: string; supersedes: string; amountMinor: number }> = await db().$transaction(
    async (tx) => {
      const old = await lockProposal(tx, actor.tenantId, input.proposalId);
      if (!old) return refuse(tx, actor, traceId, null, "not_found", "No such proposal.", undefined, action);
      const ref = { id: old.id, hash: old.hash };
      const now = new Date();
      const refusal = reviewerRefusal(old.expiresAt <= now ? S.expired : old.status, "edit");
      if (refusal)
        return refuse(tx, actor, traceId, ref, refusal.code, refusal.message, { status: old.status }, action);
      if (input.hash !== old.hash) return refuseHashMismatch(tx, actor, traceId, ref, "edit", action);
      if (input.amountMinor >= old.amountMinor) {
        const details = { reason: "not_lower", maxMinor: old.amountMinor - 1 };
        return refuse(
          tx,
          actor,
          traceId,
          ref,
          "invalid_arguments",
          "An edit can only lower the amount.",
          details,
          action,
        );
      }
      const mismatch = await orderMismatch(tx, old);
      if (mismatch) return invalidateAndRefuse(tx, actor, traceId, ref, mismatch, ORDER_CHANGED, now, action);
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
    },
  );
  if (!decision.ok) throw decisionError(decision);
  return decision.value;
}
