// The v1/v2 switch and the limits of the hashed integers (found unchecked by mutation testing,
// npm run test:mutation): a malformed hash input is refused with its own message, never hashed.
import { describe, expect, it } from "vitest";
import { computeProposalHash, proposalHashMatches, proposalHashPayload, type ProposalHashInput } from "./proposal-hash";

const base: ProposalHashInput = {
  id: "0b0e8c2a-5f27-4c55-9a3e-3b1f2c9d7e10",
  tenantId: "6d1f7c1e-2a4b-4c3d-8e9f-0a1b2c3d4e5f",
  tool: "prepare_refund",
  orderId: "1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e4f5",
  amount: { minor: 12345, currency: "EUR" },
  recipient: { kind: "card", ref: "pi_1", holder: "Ana" },
  reason: "damaged_item",
  expiresAt: new Date("2026-11-29T20:15:00.000Z"),
};

describe("proposal hash payload", () => {
  it("is version 1 without a policy version, whatever requiredApprovals says", () => {
    for (const policyVersion of [undefined, null]) {
      const payload = proposalHashPayload({ ...base, requiredApprovals: 0, policyVersion });
      expect(payload.v).toBe(1);
      expect(payload).not.toHaveProperty("requiredApprovals");
      expect(payload).not.toHaveProperty("policyVersion");
    }
  });
  it("is version 2 from policy version 1 and one required approval", () => {
    expect(proposalHashPayload({ ...base, requiredApprovals: 1, policyVersion: 1 })).toMatchObject({
      v: 2,
      requiredApprovals: 1,
      policyVersion: 1,
    });
  });
  it("refuses a policy version below 1 or fractional, and an approvals count below 1 or fractional", () => {
    for (const policyVersion of [0, -1, 1.5, Number.NaN]) {
      expect(
        () => proposalHashPayload({ ...base, requiredApprovals: 1, policyVersion }),
        String(policyVersion),
      ).toThrow("policyVersion must be a positive integer");
    }
    for (const requiredApprovals of [0, -2, 1.5, undefined]) {
      expect(
        () => proposalHashPayload({ ...base, requiredApprovals, policyVersion: 1 }),
        String(requiredApprovals),
      ).toThrow("requiredApprovals must be a positive integer");
    }
  });
  it("refuses an unsafe amount", () => {
    expect(() =>
      computeProposalHash({ ...base, amount: { minor: Number.MAX_SAFE_INTEGER + 1, currency: "EUR" } }),
    ).toThrow("amount.minor must be an integer number of minor units");
  });
  it("matches a presented hash only when it is 64 lowercase hex and equal", () => {
    const hash = computeProposalHash(base);
    expect(proposalHashMatches(base, hash)).toBe(true);
    expect(proposalHashMatches(base, ` ${hash}`)).toBe(false);
    expect(proposalHashMatches(base, hash.slice(1))).toBe(false);
    expect(proposalHashMatches(base, `${hash.slice(1)}g`)).toBe(false);
  });
});
