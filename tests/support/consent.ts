// Every consent a proposal's hashed policy asks for (docs/action-kinds.md, "Who confirms"), for tests about what
// follows an approval: a reviewer's approval unless the customer alone confirms, and the customer's confirmation on a
// fresh one-time link (issued as an approval_required answer issues it) when the customer must confirm.
import { needsCustomer, needsReviewers } from "@/lib/domain/confirmation-policy";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { issueConfirmLink } from "@/lib/server/confirmations/issue-confirm-link";
import { recordCustomerDecision } from "@/lib/server/confirmations/record-customer-decision";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";

/** Consents to the proposal as its policy asks (the reviewer approves where reviewers must); answers its status. */
export async function consentTo(reviewer: Actor, p: { id: string; hash: string }): Promise<{ status: string }> {
  const row = await db().proposal.findUniqueOrThrow({ where: { id: p.id } });
  let status: string = row.status;
  if (needsReviewers(row.confirmation))
    status = (await approveProposal(reviewer, { proposalId: p.id, hash: p.hash })).status;
  if (needsCustomer(row.confirmation)) {
    const sub = row.customerId ?? row.endUserId;
    if (!sub) throw new Error("the proposal has no customer to confirm it");
    const link = await issueConfirmLink(sqlPool(), { tenantId: row.tenantId, proposalId: p.id, sub });
    if (!link) throw new Error("no confirm link is due for this proposal");
    const token = link.url.split("/confirm/")[1]!;
    const answer = await recordCustomerDecision(
      token,
      { proposal_id: p.id, hash: p.hash, decision: "confirm", reason: null },
      null,
    );
    if (!answer.ok) throw new Error(`the customer's confirmation was refused: ${answer.code}`);
    status = answer.status;
  }
  return { status };
}
