import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { parseInput } from "@/lib/domain/validation";
import { addProposalCommentInput } from "@/lib/schemas/proposals";
import type { ProposalComment } from "@/lib/schemas/proposal-dto";
import { sqlOf } from "@/lib/server/db/sql";
import { recordStaffEvent } from "@/lib/server/audit/record-event";
import type { Actor } from "@/lib/server/auth/actor";
import { reviewerTextScrubber } from "./scrub-reviewer-text";
import { transaction } from "@/lib/server/db/transaction";

/**
 * A staff member comments on a proposal of their tenant (docs/design.md "Comments"): any state, staff only (an
 * agent key never reaches a staff route). The body is validated (1–COMMENT_MAX characters after trimming, no
 * control characters) and scrubbed of personal data before it is stored; the comment and its audit event
 * (`proposal:comment`, the comment id, the scrubbed body scrubbed again by the audit writer) commit together.
 * Another tenant's proposal is not found.
 */
export async function addProposalComment(actor: Actor, raw: unknown): Promise<ProposalComment> {
  assertCan(actor.roles, "proposal:comment");
  const input = parseInput(addProposalCommentInput, raw, "The comment is malformed.");
  return transaction(async (tx) => {
    const p = await tx.proposal.findFirst({
      where: { id: input.proposalId, tenantId: actor.tenantId },
      select: { id: true, hash: true, customerId: true, traceId: true },
    });
    if (!p) throw new AppError("not_found", "No such proposal.");
    const scrub = await reviewerTextScrubber(tx, actor.tenantId, p.customerId);
    const comment = await tx.proposalComment.create({
      data: { tenantId: actor.tenantId, proposalId: p.id, authorId: actor.userId, body: scrub(input.body) },
      select: { id: true, body: true, createdAt: true },
    });
    await recordStaffEvent(sqlOf(tx), actor, {
      traceId: p.traceId, // the proposal's trace: its story holds the discussion
      action: "proposal:comment",
      outcome: "ok",
      proposal: { id: p.id, hash: p.hash },
      data: { commentId: comment.id, body: comment.body },
      redaction: { clear: ["commentId"] },
    });
    return { id: comment.id, author: actor.name, body: comment.body, createdAt: comment.createdAt.toISOString() };
  });
}
