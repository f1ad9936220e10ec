import "server-only";
import { randomUUID } from "node:crypto";
import { needsCustomer } from "@/lib/domain/confirmation-policy";
import { proposalStatus as S } from "@/lib/domain/proposal-state";
import { redactUserAgent } from "@/lib/domain/user-agent";
import type { ConfirmOutcome, ConfirmRefusal, CustomerDecisionInput } from "@/lib/schemas/customer-confirmation";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import { db, type Tx } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { transaction } from "@/lib/server/db/transaction";
import { enqueueJob } from "@/lib/server/jobs/enqueue";
import { closePending, lockProposal, storedIntact } from "@/lib/server/proposals/proposal-guards";
import { decisionOutside } from "@/lib/server/proposals/revalidation-outside";
import { reviewerTextScrubber } from "@/lib/server/proposals/scrub-reviewer-text";
import { confirmTokenHash, isTokenShaped } from "./confirm-token";
import { missingConsent } from "./customer-confirmation";

export type DecisionAnswer =
  { ok: true; outcome: ConfirmOutcome; status: string } | { ok: false; code: ConfirmRefusal };

/**
 * The kind's look outside our database (a declared action's re-derive on the shop), before the transaction and the
 * lock, as at a reviewer's approval (KindBehaviour.revalidateOutside): only for a link that can still confirm this
 * proposal. Everything is checked again under the lock.
 */
async function confirmationOutside(tokenHash: string, proposalId: string, now: Date): Promise<unknown> {
  const link = await db().customerConfirmation.findUnique({ where: { tokenHash } });
  if (!link || link.usedAt || link.expiresAt <= now || link.proposalId !== proposalId) return undefined;
  return decisionOutside(link.tenantId, link.proposalId);
}

/** What the proposal's rejection says when the customer declines without a reason of their own. */
export const DECLINED_WITHOUT_REASON = "The customer declined this action on the confirm page.";

/**
 * The customer confirms or declines, on their one-time link (docs/agent-api.md, "Customer confirmation"). Under the
 * proposal's row lock, in one transaction with its audit event: the link must be known, unused, unexpired and for
 * this proposal; the proposal pending, unexpired, intact, and its hash the one the link was issued for AND the one
 * the page showed. The link is then used (a guarded UPDATE: a replay finds it used). Confirm: the confirmation is
 * recorded as the end user's approval (`proposal:customer_confirmed`), and the proposal is approved — its execution
 * queued — when that was the last consent missing. Decline: the proposal is rejected with the customer's reason.
 */
export async function recordCustomerDecision(
  token: string,
  input: CustomerDecisionInput,
  userAgent: string | null,
  now = new Date(),
): Promise<DecisionAnswer> {
  if (!isTokenShaped(token)) return { ok: false, code: "link_unknown" };
  const tokenHash = confirmTokenHash(token);
  const outside =
    input.decision === "confirm" ? await confirmationOutside(tokenHash, input.proposal_id, now) : undefined;
  return transaction(async (tx) => {
    const link = await tx.customerConfirmation.findUnique({ where: { tokenHash } });
    if (!link) return { ok: false, code: "link_unknown" };
    if (link.usedAt) return refuse(tx, link, "link_used", now);
    if (link.expiresAt <= now) return refuse(tx, link, "link_expired", now);
    if (link.proposalId !== input.proposal_id) return refuse(tx, link, "link_other_proposal", now);
    const p = await lockProposal(tx, link.tenantId, link.proposalId);
    if (!p) return { ok: false, code: "link_unknown" };
    if (p.status !== S.pendingApproval) return refuse(tx, link, "proposal_closed", now, p.hash);
    if (p.expiresAt <= now) {
      await closePending(tx, p.id, { status: S.expired, decidedAt: now });
      return refuse(tx, link, "proposal_closed", now, p.hash);
    }
    // The action must still be exactly the one the link was issued for and the page showed, bound to its own
    // policy (the customer's confirmation must be asked for), and the end user the proposal's customer.
    if (
      !storedIntact(p) ||
      link.proposalHash !== p.hash ||
      input.hash !== p.hash ||
      !needsCustomer(p.confirmation) ||
      (p.customerId ?? p.endUserId) !== link.endUserSub
    )
      return refuse(tx, link, "proposal_changed", now, p.hash);
    // A confirmation re-derives the action from its system of record first, as a reviewer's approval does: any
    // difference invalidates the proposal and the link refuses (nothing is confirmed, the link stays unused).
    if (input.decision === "confirm") {
      const { kindBehaviourOf } = await import("@/lib/actions/registry.server");
      const behaviour = kindBehaviourOf(p.kind);
      const mismatch = behaviour ? await behaviour.revalidate(tx, p, now, outside) : "unknown_kind";
      if (mismatch) {
        if (behaviour)
          await closePending(tx, p.id, { status: S.invalidated, invalidationReason: mismatch, decidedAt: now });
        return refuse(tx, link, "proposal_changed", now, p.hash, mismatch);
      }
    }
    // One use: the guarded UPDATE is what makes a replay (or two taps at once) find the link used.
    const used = await tx.customerConfirmation.updateMany({
      where: { id: link.id, usedAt: null },
      data: {
        usedAt: now,
        decision: input.decision === "confirm" ? "confirmed" : "declined",
        shownHash: input.hash,
        userAgent: redactUserAgent(userAgent),
        reason: null,
      },
    });
    if (used.count !== 1) return { ok: false, code: "link_used" };
    const ref = { id: p.id, hash: p.hash };
    const traceId = p.traceId;
    const actor = { type: "end_user" as const, id: link.endUserSub, authMethod: "confirm_link" };
    const ua = redactUserAgent(userAgent);
    if (input.decision === "decline") {
      const scrub = await reviewerTextScrubber(tx, p.tenantId, p.customerId);
      const reason = input.reason ? scrub(input.reason) : DECLINED_WITHOUT_REASON;
      await tx.customerConfirmation.update({ where: { id: link.id }, data: { reason } });
      if (!(await closePending(tx, p.id, { status: S.rejected, rejectionReason: reason, decidedAt: now })))
        throw new Error("proposal changed state under its row lock");
      await recordAuditEvent(sqlOf(tx), {
        tenantId: p.tenantId,
        traceId,
        actor,
        action: "proposal:customer_declined",
        outcome: "ok",
        proposal: ref,
        endUser: link.endUserSub,
        data: { confirmationId: link.id, shownHash: input.hash, userAgent: ua, reason, status: S.rejected },
        redaction: { clear: ["confirmationId", "shownHash", "userAgent", "status"] },
      });
      return { ok: true, outcome: "declined", status: S.rejected };
    }
    const approved = (await missingConsent(tx, p)) === null;
    if (approved) {
      if (!(await closePending(tx, p.id, { status: S.approved, decidedAt: now })))
        throw new Error("proposal changed state under its row lock");
      // As after a reviewer's last approval: the execution request commits with the approval.
      await enqueueJob(sqlOf(tx), "execute_refund", { proposalId: p.id });
    }
    const status = approved ? S.approved : S.pendingApproval;
    await recordAuditEvent(sqlOf(tx), {
      tenantId: p.tenantId,
      traceId,
      actor,
      action: "proposal:customer_confirmed",
      outcome: "ok",
      proposal: ref,
      endUser: link.endUserSub,
      data: { confirmationId: link.id, shownHash: input.hash, userAgent: ua, status, confirmation: p.confirmation },
      redaction: { clear: ["confirmationId", "shownHash", "userAgent", "status", "confirmation"] },
    });
    return { ok: true, outcome: "confirmed", status };
  });
}

/** A refused use of a link, audited in the proposal's trace (never with the token). */
async function refuse(
  tx: Tx,
  link: { id: string; tenantId: string; proposalId: string; endUserSub: string },
  code: ConfirmRefusal,
  now: Date,
  hash?: string,
  reason?: string,
): Promise<DecisionAnswer> {
  const p = await tx.proposal.findFirst({
    where: { id: link.proposalId, tenantId: link.tenantId },
    select: { id: true, hash: true, traceId: true },
  });
  await recordAuditEvent(sqlOf(tx), {
    tenantId: link.tenantId,
    traceId: p?.traceId ?? randomUUID().replace(/-/g, ""),
    actor: { type: "end_user", id: link.endUserSub, authMethod: "confirm_link" },
    action: "proposal:customer_confirmed",
    // The audit's outcome codes are the stable ones of DESIGN.md; which refusal it was is in `refused`.
    outcome: "permission_denied",
    proposal: p ? { id: p.id, hash: hash ?? p.hash } : null,
    endUser: link.endUserSub,
    data: { refused: code, confirmationId: link.id, at: now.toISOString(), ...(reason ? { reason } : {}) },
    redaction: { clear: ["refused", "confirmationId", "at", "reason"] },
  });
  return { ok: false, code };
}
