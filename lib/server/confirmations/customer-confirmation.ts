import "server-only";
import { needsCustomer, needsReviewers } from "@/lib/domain/confirmation-policy";
import type { Tx } from "@/lib/server/db/client";

// Whether a proposal holds every consent its hashed policy asks for (docs/action-kinds.md, "Who confirms"): the
// reviewers' approvals (as many as required, each bound to the hash) unless the customer alone confirms, and the
// customer's confirmation bound to the hash when the customer must confirm. A reviewer never stands in for the
// customer, and the customer's confirmation never counts as a reviewer's: they are counted apart.

export type ConsentProposal = { id: string; hash: string; confirmation: string; requiredApprovals: number };

/** The customer's confirmation of the proposal, if there is one (at most one: a unique index). */
export async function customerConfirmationOf(tx: Tx, proposalId: string) {
  return tx.customerConfirmation.findFirst({ where: { proposalId, decision: "confirmed" } });
}

/**
 * What is still missing before the proposal is approved, or null when nothing is: `reviewers` (fewer reviewer
 * approvals bound to the hash than required), `customer` (no confirmation bound to the hash), or both listed.
 * `maxAgeMs`, when given, also refuses consents older than that (`consent_expired`), as the executor does.
 */
export async function missingConsent(
  tx: Tx,
  p: ConsentProposal,
  opts: { now?: Date; maxAgeMs?: number } = {},
): Promise<string | null> {
  const missing: string[] = [];
  const old = (at: Date) => opts.maxAgeMs !== undefined && opts.now!.getTime() - at.getTime() > opts.maxAgeMs;
  if (needsReviewers(p.confirmation)) {
    const approvals = await tx.approval.findMany({
      where: { proposalId: p.id },
      select: { proposalHash: true, createdAt: true },
    });
    if (approvals.length < p.requiredApprovals || approvals.some((a) => a.proposalHash !== p.hash))
      missing.push("reviewers");
    else if (approvals.some((a) => old(a.createdAt))) return "consent_expired";
  }
  if (needsCustomer(p.confirmation)) {
    const c = await customerConfirmationOf(tx, p.id);
    if (!c || c.shownHash !== p.hash || c.proposalHash !== p.hash) missing.push("customer");
    else if (old(c.usedAt!)) return "consent_expired";
  }
  return missing.length ? missing.join("+") : null;
}
