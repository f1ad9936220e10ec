import { describe, expect, it } from "vitest";
import { money, refundableMinor, sumMinor } from "./money";

describe("money", () => {
  it("accepts only integer minor units and ISO codes", () => {
    expect(money(100, "EUR")).toEqual({ minor: 100, currency: "EUR" });
    expect(() => money(1.5, "EUR")).toThrow();
    expect(() => money(1, "eur")).toThrow();
  });
  it("never adds different currencies", () => {
    expect(sumMinor([money(1, "EUR"), money(2, "EUR")], "EUR")).toBe(3);
    expect(() => sumMinor([money(1, "USD")], "EUR")).toThrow();
  });
  it("refundable = captured − refunded/pending − open proposals, never negative", () => {
    expect(refundableMinor({ capturedMinor: 20000, refundedOrPendingMinor: 5000, openProposalsMinor: 0 })).toBe(15000);
    expect(refundableMinor({ capturedMinor: 20000, refundedOrPendingMinor: 5000, openProposalsMinor: 15000 })).toBe(0);
    expect(refundableMinor({ capturedMinor: 100, refundedOrPendingMinor: 200, openProposalsMinor: 0 })).toBe(0);
  });
});
