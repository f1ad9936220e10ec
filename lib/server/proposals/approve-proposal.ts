import { actionMoneyOf } from "@/lib/domain/action-money";
import "server-only";
import { randomUUID } from "node:crypto";
import { proposalStatus, refusalCodeFor, reviewerRefusal } from "@/lib/domain/proposal-state";
import type { ApprovalResult } from "@/lib/schemas/proposal-dto";
import { parseInput } from "@/lib/domain/validation";
import { assertCan } from "@/lib/domain/permissions";
import { isAuthFresh, stepUpClock } from "@/lib/domain/step-up";
import { approvalSessionWindow } from "@/lib/domain/policy";
import { approveProposalInput, type ApproveProposalInput } from "@/lib/schemas/proposals";
import { db } from "@/lib/server/db/client";
import { sqlOf, sql } from "@/lib/server/db/sql";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import { enqueueJob } from "@/lib/server/jobs/enqueue";
import { verifyStepUpPassword } from "@/lib/server/auth/verify-step-up-password";
import { renewStepUp } from "@/lib/server/auth/renew-step-up";
import type { Actor } from "@/lib/server/auth/actor";
import { verifyApprovalAssertion } from "@/lib/server/passkeys/verify-approval-assertion";
import { kindBehaviourOf } from "@/lib/actions/registry.server";
import { decisionOutside } from "./revalidation-outside";
import { closePending, releaseOwnClaim, storedIntact } from "./proposal-guards";
import { needsReviewers } from "@/lib/domain/confirmation-policy";
import { missingConsent } from "@/lib/server/confirmations/customer-confirmation";
import {
  decideOnProposal,
  decisionError,
  ORDER_CHANGED,
  refusals,
  type Decision,
  type DecisionScope,
} from "./decision";
import { transaction } from "@/lib/server/db/transaction";

export type { ApprovalResult } from "@/lib/schemas/proposal-dto";

const S = proposalStatus;

/**
 * A reviewer approves one exact proposal: the hash they were shown must equal the hash the server
 * recomputes from its own rows. Everything is checked under a row lock on the proposal, and the
 * approval, the state change and the audit event commit together or not at all:
 * permission and tenant → state → expiry → stored hash intact → presented hash → order still matches
 * (else the proposal becomes `invalidated`) → not the requester, not already approved by this reviewer
 * → fresh authentication (step-up) → daily cap → approval row → `approved` once enough distinct
 * reviewers approved.
 */
export async function approveProposal(actor: Actor, raw: unknown): Promise<ApprovalResult> {
  assertCan(actor.roles, "proposal:decide");
  const input = parseInput(approveProposalInput, raw, "The approval request is malformed.");
  const traceId = randomUUID().replace(/-/g, "");
  // The step-up password is checked first, outside any lock: a wrong one counts toward the account's
  // lockout (the sign-in counter) and is refused before the proposal row is ever locked.
  let passwordStepUp: { at: Date } | null = null;
  if (input.stepUp?.method === "password") {
    const checked = await verifyStepUpPassword(actor.userId, input.stepUp.password);
    if (!checked.ok) {
      const found = await db().proposal.findFirst({
        where: { id: input.proposalId, tenantId: actor.tenantId },
        select: { id: true, hash: true, traceId: true },
      });
      const ref = found && { id: found.id, hash: found.hash };
      const refusal = await transaction((tx) => {
        const no = refusals(tx, actor, found?.traceId ?? traceId, "proposal:approve", traceId);
        if (checked.reason !== "locked")
          return no.refuse(ref, "permission_denied", "That password is not correct.", { reason: "step_up_failed" });
        const message = "Too many wrong passwords: your account is paused for a few minutes.";
        return no.refuse(ref, "limit_exceeded", message, { reason: "account_locked" });
      });
      throw decisionError(refusal);
    }
    passwordStepUp = checked;
  }
  // The kind's look outside our database (a declared action's re-derive on the shop), before the lock: nothing held
  // while the shop answers; revalidate uses it under the lock.
  const outside = await decisionOutside(actor.tenantId, input.proposalId);
  // Many reviewers (or one double click) may wait on the same row lock: allow for the wait.
  const on = { proposalId: input.proposalId, traceId, action: "proposal:approve" };
  return decideOnProposal(actor, on, (scope) => decide(scope, actor, input, passwordStepUp, outside), {
    maxWait: 20_000,
    timeout: 20_000,
  });
}

async function decide(
  { tx, p, ref, traceId, requestTraceId, no }: DecisionScope,
  actor: Actor,
  input: ApproveProposalInput,
  passwordStepUp: { at: Date } | null,
  outside: unknown,
): Promise<Decision<ApprovalResult>> {
  const denied = (reason: string, message: string, more: Record<string, unknown> = {}) =>
    no.refuse(ref, "permission_denied", message, { reason, ...more });
  const now = new Date();

  const refusal = reviewerRefusal(p.status, "approve");
  if (refusal) return no.refuse(ref, refusal.code, refusal.message, { status: p.status });
  if (p.expiresAt <= now) {
    await closePending(tx, p.id, { status: S.expired, decidedAt: now });
    const message = "This proposal expired before it was approved; re-prepare it from current data.";
    return no.refuse(ref, refusalCodeFor(S.expired), message, { expiresAt: p.expiresAt.toISOString() });
  }
  if (!storedIntact(p)) {
    // The stored row no longer hashes to its recorded hash (or asks for no approval at all): it was
    // altered outside the product.
    const message = "This proposal's stored data does not match its hash; it was invalidated.";
    return no.invalidate(ref, "stored_hash_mismatch", message, now);
  }
  if (input.hash !== p.hash) return no.hashMismatch(ref, "approve");
  // The kind re-derives from its system of record (docs/action-kinds.md): any difference invalidates. A kind this
  // release does not know (a newer release wrote it) is refused, never approved unchecked nor invalidated.
  const behaviour = kindBehaviourOf(p.kind);
  if (!behaviour) {
    const message =
      "This kind of action cannot be approved by this version of the product; try again after the upgrade.";
    return no.refuse(ref, "temporarily_unavailable", message, { reason: "unknown_kind", kind: p.kind });
  }
  const mismatch = await behaviour.revalidate(tx, p, now, outside);
  if (mismatch) return no.invalidate(ref, mismatch, ORDER_CHANGED, now);
  if (p.requestedByStaffId === actor.userId)
    return denied("own_proposal", "You prepared or edited this proposal, so another reviewer must approve it.");
  if (p.approvals.some((a) => a.approverId === actor.userId))
    return denied("already_approved", "You already approved this proposal; it needs a different reviewer.");
  // Only the customer confirms this one (its hashed policy): a reviewer cannot stand in for them.
  if (!needsReviewers(p.confirmation))
    return denied(
      "customer_confirms",
      "Only the customer confirms this action, on their confirm link; reviewers may reject it.",
    );

  // The method names what happened for this approval: "passkey" or "password" when one was presented
  // and verified, "session" when the session's step-up window was still open (its opener is in the audit).
  let authMethod: "passkey" | "password" | "session";
  let authTime: Date;
  let passkey: { credentialId: string; evidence: object } | null = null;
  if (input.stepUp?.method === "passkey") {
    // A passkey approval is its own fresh authentication, whatever the session's age: the assertion
    // signs a challenge derived from this proposal's hash and is stored as the reviewer's signature.
    const verified = await verifyApprovalAssertion(tx, {
      userId: actor.userId,
      tenantId: p.tenantId,
      proposal: ref,
      response: input.stepUp.response,
      now,
    });
    if (!verified.ok) return denied("step_up_failed", verified.message, { passkey: verified.reason });
    passkey = verified;
    authMethod = "passkey";
    authTime = now;
  } else if (passwordStepUp) {
    authMethod = "password";
    authTime = passwordStepUp.at;
  } else if (
    // A kind whose hashed params ask for a fresh step-up (an admin-declared action's policy.stepUp): no session window.
    !behaviour.freshStepUp?.(p.params) &&
    isAuthFresh(stepUpClock(actor), approvalSessionWindow(p.tenant), now)
  ) {
    // The tenant's policy says how long an open session approves (approvalSessionMinutes, 0 = never).
    authMethod = "session";
    authTime = new Date(stepUpClock(actor) * 1000);
  } else {
    const window = approvalSessionWindow(p.tenant);
    return denied(
      "step_up_required",
      window === 0
        ? "Confirm it is you: every approval needs your password or a passkey."
        : `Confirm it is you: your sign-in is older than ${window} minutes.`,
    );
  }
  // The money cap counts what the proposal pays out, whatever its kind (lib/domain/action-money.ts): a refund's
  // amount, a cancellation's refund; a kind that moves no money is not counted.
  const money = actionMoneyOf(p);
  if (p.tenant.reviewerDailyApprovalLimitMinor !== null && money !== null) {
    // One reviewer's approvals are serialized from here to commit (a transaction-scoped advisory lock
    // keyed by the reviewer), so two approvals arriving together cannot both fit under the cap. Taken
    // after the proposal's row lock, as every path does, so the two locks cannot deadlock.
    await sql`SELECT 1 FROM pg_advisory_xact_lock(hashtext('approval-daily-cap'), hashtext(${actor.userId}))`.execute(
      sqlOf(tx),
    );
    // "Today" is the tenant's calendar day, in its time zone (PostgreSQL's zone rules, DST included).
    const [day] = (
      await sql<{ start: Date }>`
      SELECT (date_trunc('day', ${now}::timestamptz AT TIME ZONE ${p.tenant.timeZone}) AT TIME ZONE ${p.tenant.timeZone}) AS start`.execute(
        sqlOf(tx),
      )
    ).rows;
    const dayStart = day!.start;
    const [today] = (
      await sql<{ total: bigint | null }>`
      SELECT SUM(COALESCE(p."amountMinor", (p."params" #>> '{money,minor}')::bigint)) AS total
        FROM "Approval" a JOIN "Proposal" p ON p.id = a."proposalId"
       WHERE a."tenantId" = ${p.tenantId}::uuid AND a."approverId" = ${actor.userId}::uuid AND a."createdAt" >= ${dayStart}
         AND COALESCE(trim(p."currency"), p."params" #>> '{money,currency}') = ${money.currency}`.execute(sqlOf(tx))
    ).rows;
    const used = Number(today?.total ?? 0);
    if (used + money.minor > p.tenant.reviewerDailyApprovalLimitMinor) {
      const message = "Approving this would exceed your daily approval total; ask another reviewer.";
      const limitMinor = p.tenant.reviewerDailyApprovalLimitMinor;
      return no.refuse(ref, "limit_exceeded", message, { reason: "daily_total", usedMinor: used, limitMinor });
    }
  }

  // A kind's own per-reviewer limit (the bulk message's daily recipients cap), like the money cap above.
  const overLimit = await behaviour.approvalLimit?.(tx, p, actor.userId, now);
  if (overLimit) return no.refuse(ref, "limit_exceeded", overLimit.message, overLimit.details);

  // A verified step-up renews this session's window, in this transaction: a refused approval renews nothing.
  if (authMethod !== "session") await renewStepUp(actor, authMethod, authTime, tx);

  await tx.approval.create({
    data: {
      tenantId: p.tenantId,
      proposalId: p.id,
      approverId: actor.userId,
      proposalHash: p.hash,
      authMethod,
      authTime,
      // The approval row keeps the reviewer's own request trace (its span); its audit event is in the proposal's.
      traceId: requestTraceId,
      ...(passkey ? { passkeyCredentialId: passkey.credentialId, passkeyAssertion: passkey.evidence } : {}),
    },
  });
  const claimReleased = await releaseOwnClaim(tx, p.id, actor.userId);
  const approvals = p.approvals.length + 1;
  let status: ApprovalResult["status"] = S.pendingApproval;
  // Enough reviewers: approved — unless the customer must confirm too and has not yet (then their confirmation
  // approves it; customer-confirmation.ts counts the two apart).
  const awaitingCustomer = approvals >= p.requiredApprovals && (await missingConsent(tx, p)) === "customer";
  if (approvals >= p.requiredApprovals && !awaitingCustomer) {
    if (!(await closePending(tx, p.id, { status: S.approved, decidedAt: now })))
      throw new Error("proposal changed state under its row lock");
    status = S.approved;
    // Execution is a job committed with the approval: no approval without its execution request,
    // and the job key keeps it to one waiting job per proposal.
    await enqueueJob(sqlOf(tx), "execute_refund", { proposalId: p.id });
  }
  await recordAuditEvent(sqlOf(tx), {
    tenantId: p.tenantId,
    traceId,
    actor: { type: "staff", id: actor.userId, authMethod },
    action: "proposal:approve",
    outcome: "ok",
    proposal: ref,
    data: {
      approvals,
      requiredApprovals: p.requiredApprovals,
      status,
      authTime: authTime.toISOString(),
      requestTrace: requestTraceId,
      ...(passkey ? { passkeyId: passkey.credentialId } : {}),
      ...(authMethod === "session" ? { windowOpenedBy: actor.stepUpMethod ?? actor.authMethod } : {}),
      ...(claimReleased ? { claimReleased } : {}),
      ...(awaitingCustomer ? { awaiting: "customer" } : {}),
    },
    redaction: {
      clear: [
        "awaiting",
        "approvals",
        "requiredApprovals",
        "status",
        "authTime",
        "requestTrace",
        "passkeyId",
        "windowOpenedBy",
        "claimReleased",
      ],
    },
  });
  return { ok: true, value: { proposalId: p.id, status, approvals, requiredApprovals: p.requiredApprovals } };
}
