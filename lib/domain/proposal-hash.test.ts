import { describe, expect, it } from "vitest";
import {
  canonicalProposalJson,
  computeProposalHash,
  proposalHashMatches,
  type ProposalHashInput,
} from "./proposal-hash";

// Fixed vector, computed independently (Python: json.dumps(sort_keys=True, separators=(",", ":"),
// ensure_ascii=False) equals RFC 8785 for these values) so a change to the recipe is caught.
const vector: ProposalHashInput = {
  id: "0b0e8c2a-5f27-4c55-9a3e-3b1f2c9d7e10",
  tenantId: "6d1f7c1e-2a4b-4c3d-8e9f-0a1b2c3d4e5f",
  tool: "prepare_refund",
  orderId: "1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e4f5",
  amount: { minor: 12345, currency: "EUR" },
  recipient: { kind: "card", ref: "pi_demo_0123456789abcdef0123", holder: "Ana García" },
  reason: "damaged_item",
  expiresAt: new Date("2026-11-29T21:15:00.000+01:00"),
};
const expectedJson =
  '{"amount":{"currency":"EUR","minor":12345},"expiresAt":"2026-11-29T20:15:00.000Z","id":"0b0e8c2a-5f27-4c55-9a3e-3b1f2c9d7e10","orderId":"1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e4f5","reason":"damaged_item","recipient":{"holder":"Ana García","kind":"card","ref":"pi_demo_0123456789abcdef0123"},"tenantId":"6d1f7c1e-2a4b-4c3d-8e9f-0a1b2c3d4e5f","tool":"prepare_refund","v":1}';
const expectedHash = "47f89073dc2d4b76a325b8417a47a542d217399fa1dad36730ef3a0c1b063997";

describe("proposal hash", () => {
  it("canonicalizes exactly the documented fields (UTC, milliseconds, sorted keys)", () => {
    expect(canonicalProposalJson(vector)).toBe(expectedJson);
  });

  it("matches the fixed vector", () => {
    expect(computeProposalHash(vector)).toBe(expectedHash);
    expect(proposalHashMatches(vector, expectedHash)).toBe(true);
  });

  it("changes when any bound field changes", () => {
    const variants: ProposalHashInput[] = [
      { ...vector, amount: { minor: 12344, currency: "EUR" } },
      { ...vector, amount: { minor: 12345, currency: "USD" } },
      { ...vector, recipient: { ...vector.recipient, ref: "pi_other" } },
      { ...vector, recipient: { ...vector.recipient, holder: "Ana Garcia" } },
      { ...vector, reason: "other" },
      { ...vector, expiresAt: new Date(vector.expiresAt.getTime() + 1) },
      { ...vector, id: "0b0e8c2a-5f27-4c55-9a3e-3b1f2c9d7e11" },
      { ...vector, tenantId: "6d1f7c1e-2a4b-4c3d-8e9f-0a1b2c3d4e50" },
    ];
    const hashes = new Set(variants.map(computeProposalHash));
    expect(hashes.size).toBe(variants.length);
    expect(hashes.has(expectedHash)).toBe(false);
  });

  it("refuses non-integer amounts and malformed presented hashes", () => {
    expect(() => computeProposalHash({ ...vector, amount: { minor: 123.45, currency: "EUR" } })).toThrow();
    expect(proposalHashMatches(vector, expectedHash.toUpperCase())).toBe(false);
    expect(proposalHashMatches(vector, "")).toBe(false);
  });
});

describe("proposal hash v2 (requiredApprovals and policyVersion bound)", () => {
  const v2: ProposalHashInput = { ...vector, requiredApprovals: 2, policyVersion: 3 };
  // Computed independently (Python json.dumps sort_keys, compact separators, ensure_ascii=False).
  const expectedV2Json =
    '{"amount":{"currency":"EUR","minor":12345},"expiresAt":"2026-11-29T20:15:00.000Z","id":"0b0e8c2a-5f27-4c55-9a3e-3b1f2c9d7e10","orderId":"1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e4f5","policyVersion":3,"reason":"damaged_item","recipient":{"holder":"Ana García","kind":"card","ref":"pi_demo_0123456789abcdef0123"},"requiredApprovals":2,"tenantId":"6d1f7c1e-2a4b-4c3d-8e9f-0a1b2c3d4e5f","tool":"prepare_refund","v":2}';

  it("matches the fixed v2 vector", () => {
    expect(canonicalProposalJson(v2)).toBe(expectedV2Json);
    expect(computeProposalHash(v2)).toBe("f51c84c81297bb186938dfb51da6a9939e105df8dbaf121e440ad2bf0dc06fef");
  });

  it("changes with requiredApprovals or policyVersion; without a policy version it is the v1 hash", () => {
    expect(computeProposalHash({ ...v2, requiredApprovals: 1 })).not.toBe(computeProposalHash(v2));
    expect(computeProposalHash({ ...v2, policyVersion: 4 })).not.toBe(computeProposalHash(v2));
    expect(computeProposalHash({ ...v2, policyVersion: null })).toBe(expectedHash);
    expect(computeProposalHash({ ...v2, policyVersion: undefined })).toBe(expectedHash);
  });

  it("refuses a malformed policy version or approvals count", () => {
    expect(() => computeProposalHash({ ...v2, policyVersion: 0 })).toThrow();
    expect(() => computeProposalHash({ ...v2, requiredApprovals: undefined })).toThrow();
    expect(() => computeProposalHash({ ...v2, requiredApprovals: 1.5 })).toThrow();
  });
});

describe("proposal hash v3 (the source snapshot bound)", () => {
  const source = {
    provider: "stripe",
    paymentRef: "pi_demo_0123456789abcdef0123",
    capturedMinor: 20000,
    refundedMinor: 5000,
  };
  const v3: ProposalHashInput = { ...vector, requiredApprovals: 2, policyVersion: 3, source };
  // Computed independently (Python json.dumps sort_keys, compact separators, ensure_ascii=False).
  const expectedV3Json =
    '{"amount":{"currency":"EUR","minor":12345},"expiresAt":"2026-11-29T20:15:00.000Z","id":"0b0e8c2a-5f27-4c55-9a3e-3b1f2c9d7e10","orderId":"1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e4f5","policyVersion":3,"reason":"damaged_item","recipient":{"holder":"Ana García","kind":"card","ref":"pi_demo_0123456789abcdef0123"},"requiredApprovals":2,"source":{"capturedMinor":20000,"paymentRef":"pi_demo_0123456789abcdef0123","provider":"stripe","refundedMinor":5000},"tenantId":"6d1f7c1e-2a4b-4c3d-8e9f-0a1b2c3d4e5f","tool":"prepare_refund","v":3}';

  it("matches the fixed v3 vector", () => {
    expect(canonicalProposalJson(v3)).toBe(expectedV3Json);
    expect(computeProposalHash(v3)).toBe("38df157f053ef9e3dada53b639afb016db0afc78e28e2c0978c59fee8d88777a");
  });

  it("changes with any part of the snapshot; without a source it is the v2 hash (v1 and v2 stay verifiable)", () => {
    for (const changed of [
      { ...source, provider: "manual" },
      { ...source, paymentRef: "pi_other" },
      { ...source, capturedMinor: 20001 },
      { ...source, refundedMinor: 4999 },
    ]) {
      expect(computeProposalHash({ ...v3, source: changed })).not.toBe(computeProposalHash(v3));
    }
    expect(computeProposalHash({ ...v3, source: null })).toBe(
      "f51c84c81297bb186938dfb51da6a9939e105df8dbaf121e440ad2bf0dc06fef",
    );
    expect(computeProposalHash({ ...v3, source: undefined, policyVersion: null })).toBe(expectedHash);
  });

  it("refuses snapshot amounts that are not integer minor units", () => {
    expect(() => computeProposalHash({ ...v3, source: { ...source, refundedMinor: 1.5 } })).toThrow();
    expect(() => computeProposalHash({ ...v3, source: { ...source, capturedMinor: -1 } })).toThrow();
  });
});
