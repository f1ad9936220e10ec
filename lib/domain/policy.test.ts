import { describe, expect, it } from "vitest";
import {
  approvalSessionWindow,
  diffPolicy,
  needsSecondAdmin,
  policyWarnings,
  storedPolicyValues,
  type PolicyValues,
} from "./policy";

const base: PolicyValues = {
  approvalExpiryMinutes: 30,
  stepUpMinutes: 5,
  approvalSessionMinutes: 1440,
  dualApprovalThresholdMinor: 50_000,
  reviewerDailyApprovalLimitMinor: null,
  maxApprovalAgeMinutes: 60,
  retentionDays: 365,
  maxCallsPerTrace: 50,
  maxRepeatsPerTrace: 5,
  maxErrorsPerTrace: 10,
  rejectionCooldownMinutes: 1440,
  maxCallsPerKeyPerWindow: 600,
  maxCallsPerEndUserPerWindow: 60,
  windowSeconds: 60,
  endUserTokenMaxAgeSeconds: 3600,
};

describe("policy diff", () => {
  it("no change, no diff", () => {
    expect(diffPolicy(base, { ...base })).toEqual([]);
  });
  it("lowering the dual-approval threshold tightens; raising it or removing it loosens", () => {
    expect(diffPolicy(base, { ...base, dualApprovalThresholdMinor: 10_000 })).toEqual([
      { field: "dualApprovalThresholdMinor", before: 50_000, after: 10_000, direction: "tighter" },
    ]);
    expect(diffPolicy(base, { ...base, dualApprovalThresholdMinor: 60_000 })[0]!.direction).toBe("looser");
    expect(diffPolicy(base, { ...base, dualApprovalThresholdMinor: null })[0]!.direction).toBe("looser");
  });
  it("a daily cap where there was none tightens; removing it loosens", () => {
    expect(diffPolicy(base, { ...base, reviewerDailyApprovalLimitMinor: 100_000 })[0]!.direction).toBe("tighter");
    expect(diffPolicy({ ...base, reviewerDailyApprovalLimitMinor: 100_000 }, base)[0]!.direction).toBe("looser");
  });
  it("shorter retention loosens, longer tightens; longer expiry or step-up loosen", () => {
    expect(diffPolicy(base, { ...base, retentionDays: 30 })[0]!.direction).toBe("looser");
    expect(diffPolicy(base, { ...base, retentionDays: 400 })[0]!.direction).toBe("tighter");
    expect(diffPolicy(base, { ...base, approvalExpiryMinutes: 31 })[0]!.direction).toBe("looser");
    expect(diffPolicy(base, { ...base, stepUpMinutes: 1 })[0]!.direction).toBe("tighter");
    expect(diffPolicy(base, { ...base, maxCallsPerTrace: 51 })[0]!.direction).toBe("looser");
    expect(diffPolicy(base, { ...base, rejectionCooldownMinutes: 60 })[0]!.direction).toBe("looser");
    expect(diffPolicy(base, { ...base, rejectionCooldownMinutes: 2880 })[0]!.direction).toBe("tighter");
    expect(diffPolicy(base, { ...base, maxCallsPerKeyPerWindow: 601 })[0]!.direction).toBe("looser");
    expect(diffPolicy(base, { ...base, windowSeconds: 30 })[0]!.direction).toBe("looser");
    expect(diffPolicy(base, { ...base, endUserTokenMaxAgeSeconds: 600 })[0]!.direction).toBe("tighter");
  });
  it('re-expressing "no limit" (Infinity as null) loosens nothing', () => {
    const unlimited = { ...base, reviewerDailyApprovalLimitMinor: Number.POSITIVE_INFINITY };
    expect(needsSecondAdmin(diffPolicy(unlimited, base))).toBe(false);
  });
  it("a mixed change needs a second admin; a purely tightening one does not", () => {
    expect(needsSecondAdmin(diffPolicy(base, { ...base, stepUpMinutes: 1, retentionDays: 400 }))).toBe(false);
    expect(needsSecondAdmin(diffPolicy(base, { ...base, stepUpMinutes: 1, maxErrorsPerTrace: 11 }))).toBe(true);
  });
  it("letting an open session approve (longer approvalSessionMinutes) loosens; asking at every approval tightens", () => {
    expect(diffPolicy({ ...base, approvalSessionMinutes: 0 }, base)[0]!.direction).toBe("looser");
    expect(diffPolicy(base, { ...base, approvalSessionMinutes: 0 })[0]!.direction).toBe("tighter");
  });
});

describe("step-up at approval and the warnings of the admin page", () => {
  it("an open session approves for the shorter of the two windows; 0 = every approval asks", () => {
    expect(approvalSessionWindow({ stepUpMinutes: 5, approvalSessionMinutes: 1440 })).toBe(5);
    expect(approvalSessionWindow({ stepUpMinutes: 5, approvalSessionMinutes: 0 })).toBe(0);
    expect(approvalSessionWindow({ stepUpMinutes: 15, approvalSessionMinutes: 2 })).toBe(2);
  });
  it("a stored version from before the field ran with 1440 (the step-up window alone)", () => {
    const { approvalSessionMinutes: _, ...old } = base;
    expect(storedPolicyValues(old)).toEqual(base);
    expect(storedPolicyValues({ ...old, approvalSessionMinutes: 0 }).approvalSessionMinutes).toBe(0);
  });
  it("warns while four eyes, the daily cap or step-up at approval is off", () => {
    expect(policyWarnings(base)).toEqual(["no_daily_cap", "session_approves"]);
    const safe = { ...base, reviewerDailyApprovalLimitMinor: 200_000, approvalSessionMinutes: 0 };
    expect(policyWarnings(safe)).toEqual([]);
    expect(policyWarnings({ ...safe, dualApprovalThresholdMinor: null })).toEqual(["no_four_eyes"]);
  });
});
