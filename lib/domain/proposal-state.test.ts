import { describe, expect, it } from "vitest";
import {
  agentOutcomeFor,
  agentVisibleState,
  isWorthWaitingFor,
  paymentPhase,
  type ProposalStatus,
  canBeReprepared,
  canTransition,
  effectiveStatus,
  isOpenAt,
  openProposalStatuses,
  proposalStatus as S,
  proposalStatuses,
  refusalCodeFor,
  reviewerRefusal,
  statesLeadingTo,
} from "./proposal-state";

const now = new Date("2026-11-30T10:00:00.000Z");
const later = new Date(now.getTime() + 60_000);
const earlier = new Date(now.getTime() - 1);

describe("proposal states", () => {
  it("lists exactly the nine states of the schema", () => {
    expect([...proposalStatuses].sort()).toEqual(
      [
        "approved",
        "executing",
        "expired",
        "failed",
        "invalidated",
        "needs_reconciliation",
        "pending_approval",
        "rejected",
        "succeeded",
      ].sort(),
    );
  });

  it("allows only the designed transitions; end states go nowhere", () => {
    expect(canTransition(S.pendingApproval, S.approved)).toBe(true);
    expect(canTransition(S.approved, S.executing)).toBe(true);
    expect(canTransition(S.executing, S.needsReconciliation)).toBe(true);
    expect(canTransition(S.needsReconciliation, S.succeeded)).toBe(true);
    expect(canTransition(S.pendingApproval, S.executing)).toBe(false);
    expect(canTransition(S.expired, S.approved)).toBe(false);
    expect(canTransition(S.invalidated, S.pendingApproval)).toBe(false);
    for (const end of [S.succeeded, S.failed, S.rejected, S.expired, S.invalidated]) {
      expect(proposalStatuses.filter((to) => canTransition(end, to))).toEqual([]);
    }
    expect(statesLeadingTo(S.succeeded).sort()).toEqual([S.executing, S.needsReconciliation].sort());
    expect(statesLeadingTo(S.approved)).toEqual([S.pendingApproval]);
  });

  it("a pending proposal past its expiry is expired and not open; exactly at expiry counts as past", () => {
    expect(effectiveStatus({ status: S.pendingApproval, expiresAt: earlier }, now)).toBe(S.expired);
    expect(effectiveStatus({ status: S.pendingApproval, expiresAt: now }, now)).toBe(S.expired);
    expect(effectiveStatus({ status: S.pendingApproval, expiresAt: later }, now)).toBe(S.pendingApproval);
    expect(isOpenAt({ status: S.pendingApproval, expiresAt: earlier }, now)).toBe(false);
    expect(isOpenAt({ status: S.pendingApproval, expiresAt: later }, now)).toBe(true);
    expect(isOpenAt({ status: S.approved, expiresAt: earlier }, now)).toBe(true);
    expect(openProposalStatuses).toEqual([S.pendingApproval, S.approved, S.executing, S.needsReconciliation]);
  });

  it("maps every state to the agent's outcome code (docs/design.md)", () => {
    expect(Object.fromEntries(proposalStatuses.map((s) => [s, agentOutcomeFor(s)]))).toEqual({
      pending_approval: "approval_required",
      approved: "result_pending",
      executing: "result_pending",
      needs_reconciliation: "result_pending",
      succeeded: "ok",
      failed: "ok",
      rejected: "rejected",
      expired: "expired",
      invalidated: "invalidated",
    });
  });

  it("refuses a reviewer with the end state's own code on approve, permission_denied otherwise", () => {
    expect(reviewerRefusal(S.pendingApproval, "approve")).toBeNull();
    expect(reviewerRefusal(S.expired, "approve")).toEqual({
      code: "expired",
      message: "This proposal has expired; it can no longer be approved.",
    });
    expect(reviewerRefusal(S.needsReconciliation, "approve")).toEqual({
      code: "permission_denied",
      message:
        "This proposal was approved and its outcome is being checked with the payment provider; it can no longer be approved.",
    });
    // Not "This proposal is succeeded…": every state reads as a sentence.
    expect(reviewerRefusal(S.succeeded, "reject")?.message).toBe(
      "This proposal has already been carried out; it can no longer be rejected.",
    );
    for (const status of Object.values(S).filter((x) => x !== S.pendingApproval))
      for (const action of ["approve", "reject"] as const)
        expect(reviewerRefusal(status, action)!.message).not.toMatch(/ is [a-z]+(ed|_)/);
    expect(reviewerRefusal(S.rejected, "reject")?.code).toBe("permission_denied");
    expect(reviewerRefusal(S.approved, "edit")).toEqual({
      code: "permission_denied",
      message: "Only a proposal that still awaits approval can be edited.",
    });
    expect(refusalCodeFor(S.invalidated)).toBe("invalidated");
    expect(refusalCodeFor(S.succeeded)).toBe("permission_denied");
  });

  it("re-prepares only what ended expired or invalidated", () => {
    expect(canBeReprepared({ status: S.pendingApproval, expiresAt: earlier }, now)).toBe(true);
    expect(canBeReprepared({ status: S.pendingApproval, expiresAt: later }, now)).toBe(false);
    expect(canBeReprepared({ status: S.invalidated, expiresAt: later }, now)).toBe(true);
    expect(canBeReprepared({ status: S.rejected, expiresAt: earlier }, now)).toBe(false);
    expect(canBeReprepared({ status: S.succeeded, expiresAt: earlier }, now)).toBe(false);
  });
});

describe("what a waiting agent can tell apart", () => {
  const now = new Date("2026-12-01T10:00:00Z");
  const later = new Date("2026-12-01T11:00:00Z");
  const earlier = new Date("2026-12-01T09:00:00Z");

  it("says in_doubt for needs_reconciliation or an unknown execution, executing otherwise", () => {
    expect(paymentPhase("needs_reconciliation", null)).toBe("in_doubt");
    expect(paymentPhase("executing", "unknown")).toBe("in_doubt");
    expect(paymentPhase("executing", "sending")).toBe("executing");
    expect(paymentPhase("executing", "pending")).toBe("executing");
    expect(paymentPhase("approved", null)).toBe("executing");
  });

  it("tells the phases apart, but not the execution's sending from pending", () => {
    const at = (status: ProposalStatus, executionStatus: string | null, expiresAt = later) =>
      agentVisibleState({ status, expiresAt, executionStatus }, now);
    expect(at("executing", "sending")).toBe(at("executing", "pending"));
    expect(at("executing", "sending")).not.toBe(at("executing", "unknown"));
    expect(at("pending_approval", null)).not.toBe(at("approved", null));
    // A pending proposal past its expiry is expired, whether or not the sweep ran.
    expect(at("pending_approval", null, earlier)).toBe("expired");
  });

  it("is worth waiting for while open, exactly until the expiry", () => {
    expect(isWorthWaitingFor({ status: "pending_approval", expiresAt: later }, now)).toBe(true);
    expect(isWorthWaitingFor({ status: "pending_approval", expiresAt: now }, now)).toBe(false);
    expect(isWorthWaitingFor({ status: "needs_reconciliation", expiresAt: earlier }, now)).toBe(true);
    expect(isWorthWaitingFor({ status: "succeeded", expiresAt: later }, now)).toBe(false);
    expect(isWorthWaitingFor({ status: "rejected", expiresAt: later }, now)).toBe(false);
  });
});
