import { describe, expect, it } from "vitest";
import { proposalAmountMinor, proposalExpiresAt, requiredApprovalsFor } from "./proposal-policy";

describe("proposal policy", () => {
  it("four eyes from exactly the threshold up; never without a threshold", () => {
    expect(requiredApprovalsFor(49_999, 50_000)).toBe(1);
    expect(requiredApprovalsFor(50_000, 50_000)).toBe(2);
    expect(requiredApprovalsFor(50_001, 50_000)).toBe(2);
    expect(requiredApprovalsFor(10_000_000, null)).toBe(1);
  });

  it("expiry is now plus the tenant's minutes", () => {
    expect(proposalExpiresAt(new Date("2026-11-30T10:00:00.000Z"), 30).toISOString()).toBe("2026-11-30T10:30:00.000Z");
  });

  it("the amount is what is left, capped by what was wanted", () => {
    expect(proposalAmountMinor(5_000)).toBe(5_000);
    expect(proposalAmountMinor(5_000, 1_200)).toBe(1_200);
    expect(proposalAmountMinor(1_000, 1_200)).toBe(1_000);
    expect(proposalAmountMinor(0, 1_200)).toBe(0);
  });
});
