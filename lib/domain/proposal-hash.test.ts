import { describe, expect, it } from "vitest";
import {
  canonicalProposalJson,
  computeProposalHash,
  hashVersionFor,
  proposalHashMatches,
  recomputeProposalHash,
  storedProposalIntact,
  type HashableProposal,
  type KindHashInput,
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

describe("proposal hash v4 (what the reviewer reads is bound: the recipient's display and the order snapshot)", () => {
  const source = {
    provider: "stripe",
    paymentRef: "pi_demo_0123456789abcdef0123",
    capturedMinor: 20000,
    refundedMinor: 5000,
  };
  const order = {
    number: "ORD-1001",
    customer: { id: "cus_ana", name: "Ana García" },
    items: [
      { sku: "AUR-01", name: "Auriculares", quantity: 1, unitMinor: 12345 },
      { sku: "LIB-07", name: "Libro de cocina", quantity: 2, unitMinor: 4495 },
    ],
  };
  const v4: ProposalHashInput = {
    ...vector,
    v: 4,
    recipient: { ...vector.recipient, display: "Visa •••• 4242" },
    requiredApprovals: 2,
    policyVersion: 3,
    source,
    order,
  };
  // Computed independently (Python json.dumps sort_keys, compact separators, ensure_ascii=False).
  const expectedV4Json =
    '{"amount":{"currency":"EUR","minor":12345},"expiresAt":"2026-11-29T20:15:00.000Z","id":"0b0e8c2a-5f27-4c55-9a3e-3b1f2c9d7e10","order":{"customer":{"id":"cus_ana","name":"Ana García"},"items":[{"name":"Auriculares","quantity":1,"sku":"AUR-01","unitMinor":12345},{"name":"Libro de cocina","quantity":2,"sku":"LIB-07","unitMinor":4495}],"number":"ORD-1001"},"orderId":"1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e4f5","policyVersion":3,"reason":"damaged_item","recipient":{"display":"Visa •••• 4242","holder":"Ana García","kind":"card","ref":"pi_demo_0123456789abcdef0123"},"requiredApprovals":2,"source":{"capturedMinor":20000,"paymentRef":"pi_demo_0123456789abcdef0123","provider":"stripe","refundedMinor":5000},"tenantId":"6d1f7c1e-2a4b-4c3d-8e9f-0a1b2c3d4e5f","tool":"prepare_refund","v":4}';

  it("matches the fixed v4 vector", () => {
    expect(canonicalProposalJson(v4)).toBe(expectedV4Json);
    expect(computeProposalHash(v4)).toBe("0dc4c1b294dfaacace38dd1c89b446bd5454c28e3a4a8e321686df67698e0550");
  });

  it("changes with the display, the order number, the customer and every part of an item", () => {
    const item = order.items[0]!;
    const variants: ProposalHashInput[] = [
      { ...v4, recipient: { ...v4.recipient, display: "IBAN DE89 •••• 0000" } },
      { ...v4, order: { ...order, number: "ORD-1002" } },
      { ...v4, order: { ...order, customer: { ...order.customer, name: "Mallory" } } },
      { ...v4, order: { ...order, customer: { ...order.customer, id: "cus_other" } } },
      { ...v4, order: { ...order, items: [order.items[1]!, item] } },
      { ...v4, order: { ...order, items: [item] } },
      { ...v4, order: { ...order, items: [{ ...item, sku: "X" }, order.items[1]!] } },
      { ...v4, order: { ...order, items: [{ ...item, name: "TV" }, order.items[1]!] } },
      { ...v4, order: { ...order, items: [{ ...item, quantity: 2 }, order.items[1]!] } },
      { ...v4, order: { ...order, items: [{ ...item, unitMinor: 1 }, order.items[1]!] } },
    ];
    const hashes = new Set([computeProposalHash(v4), ...variants.map(computeProposalHash)]);
    expect(hashes.size).toBe(variants.length + 1);
  });

  it("takes the version from the input, never from the fields present (v1–v3 of the same values stay as they were)", () => {
    expect(computeProposalHash({ ...v4, v: 3 })).toBe(
      "38df157f053ef9e3dada53b639afb016db0afc78e28e2c0978c59fee8d88777a",
    );
    expect(computeProposalHash({ ...v4, v: 2 })).toBe(
      "f51c84c81297bb186938dfb51da6a9939e105df8dbaf121e440ad2bf0dc06fef",
    );
    expect(computeProposalHash({ ...v4, v: 1 })).toBe(expectedHash);
    // Without `v`, v4's extra fields are not enough to make it v4: v4 is only ever asked for.
    expect(computeProposalHash({ ...v4, v: undefined })).toBe(
      "38df157f053ef9e3dada53b639afb016db0afc78e28e2c0978c59fee8d88777a",
    );
  });

  it("refuses a v4 input without the display, the order snapshot, or with malformed items; and unknown versions", () => {
    expect(() => computeProposalHash({ ...v4, recipient: vector.recipient })).toThrow("display");
    expect(() => computeProposalHash({ ...v4, order: null })).toThrow("order snapshot");
    expect(() => computeProposalHash({ ...v4, source: null })).toThrow("source");
    for (const items of [
      "nope",
      [null],
      [{ sku: "A", name: "B", quantity: 1.5, unitMinor: 1 }],
      [{ sku: "A", name: "B", quantity: 1, unitMinor: "1" }],
      [{ sku: 1, name: "B", quantity: 1, unitMinor: 1 }],
    ]) {
      expect(
        () => computeProposalHash({ ...v4, order: { ...order, items: items as never } }),
        JSON.stringify(items),
      ).toThrow();
    }
    // (6 is the kinds' shape with who confirms, 7 the refund's: see "hash v6 / v7" below.)
    for (const v of [0, 8, 3.5]) expect(() => computeProposalHash({ ...v4, v }), String(v)).toThrow("hash version");
    // v5 is the kinds' shape: a refund-shaped input marked v5 is refused, not hashed with made-up fields.
    expect(() => computeProposalHash({ ...v4, v: 5 })).toThrow(/kind/);
  });

  it("hash v7 is the refund's v4 plus who confirms, bound like every other field; v4 stays as it was", () => {
    const h4 = computeProposalHash(v4);
    const h7 = computeProposalHash({ ...v4, v: 7, confirmation: "both" });
    expect(h7).not.toBe(h4);
    expect(computeProposalHash({ ...v4, confirmation: "both" })).toBe(h4);
    expect(computeProposalHash({ ...v4, v: 7, confirmation: "customer" })).not.toBe(h7);
    expect(() => computeProposalHash({ ...v4, v: 7 })).toThrow(/who confirms/);
    expect(hashVersionFor("refund", "reviewers")).toBe(4);
    expect(hashVersionFor("refund", "both")).toBe(7);
    expect(hashVersionFor("kind", "reviewers")).toBe(5);
    expect(hashVersionFor("kind", "customer")).toBe(6);
  });

  it("hashes only the item fields it names (an extra key in a stored item is not hashed, nor shown)", () => {
    const extra = { ...order, items: order.items.map((i) => ({ ...i, note: "x" })) };
    expect(computeProposalHash({ ...v4, order: extra })).toBe(computeProposalHash(v4));
  });
});

describe("proposal hash v5 (the action kinds': kind, subject, params, source)", () => {
  const v5: KindHashInput = {
    v: 5,
    id: "3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c",
    tenantId: "6d1f7c1e-2a4b-4c3d-8e9f-0a1b2c3d4e5f",
    kind: "change_shipping_address",
    tool: "prepare_address_change",
    subject: { type: "order", ref: "1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e4f5" },
    params: {
      order: { number: "ORD-1001" },
      before: {
        name: "Ana García",
        line1: "Calle Mayor 1",
        line2: null,
        city: "Madrid",
        postalCode: "28013",
        region: null,
        country: "ES",
      },
      after: {
        name: "Ana García",
        line1: "Rue de Rivoli 10",
        line2: null,
        city: "Paris",
        postalCode: "75001",
        region: null,
        country: "FR",
      },
    },
    source: { orderUpdatedAt: "2026-12-05T10:00:00.000Z", fulfilment: "unfulfilled" },
    reason: "",
    expiresAt: new Date("2026-12-05T20:15:00.000Z"),
    requiredApprovals: 1,
    policyVersion: 2,
  };
  // Computed independently (Python json.dumps sort_keys, compact separators, ensure_ascii=False).
  const expected = "723ac2041427c5f79c5774db2f85ac4e33c68ca857e8ba20f2344260bdd49ba2";

  it("matches the fixed vector", () => {
    expect(canonicalProposalJson(v5)).toContain('"kind":"change_shipping_address"');
    expect(computeProposalHash(v5)).toBe(expected);
  });

  it("changes when the kind, the subject, any param or the source changes", () => {
    const after = v5.params.after as Record<string, string | null>;
    const variants: KindHashInput[] = [
      { ...v5, kind: "cancel_order" },
      { ...v5, tool: "prepare_order_cancellation" },
      { ...v5, subject: { ...v5.subject, ref: "1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e4f6" } },
      { ...v5, subject: { ...v5.subject, type: "customer" } },
      { ...v5, params: { ...v5.params, after: { ...after, postalCode: "75002" } } },
      { ...v5, params: { ...v5.params, after: { ...after, line2: "" } } },
      { ...v5, source: null },
      { ...v5, source: { ...v5.source, fulfilment: "shipped" } },
      { ...v5, reason: "customer_request" },
      { ...v5, requiredApprovals: 2 },
      { ...v5, policyVersion: 3 },
    ];
    const hashes = new Set(variants.map(computeProposalHash));
    expect(hashes.size).toBe(variants.length);
    expect(hashes.has(expected)).toBe(false);
  });

  it("refuses what JSON cannot keep exactly, and a missing subject or policy", () => {
    expect(() => computeProposalHash({ ...v5, params: { amount: 12.5 } })).toThrow(/integers only/);
    expect(() => computeProposalHash({ ...v5, params: { when: new Date() as never } })).toThrow(/cannot keep/);
    expect(() => computeProposalHash({ ...v5, params: { x: undefined as never } })).toThrow(/cannot keep/);
    expect(() => computeProposalHash({ ...v5, subject: { type: "order", ref: "" } })).toThrow(/subject/);
    expect(() => computeProposalHash({ ...v5, kind: "" })).toThrow(/kind/);
    expect(() => computeProposalHash({ ...v5, policyVersion: 0 })).toThrow(/policyVersion/);
    expect(() => computeProposalHash({ ...v5, requiredApprovals: 0 })).toThrow(/requiredApprovals/);
  });

  it("a stored v5 row hashes from its kind, subject, params and source columns — never from refund columns", () => {
    const row: HashableProposal = {
      hashVersion: 5,
      id: v5.id,
      tenantId: v5.tenantId,
      tool: v5.tool,
      kind: v5.kind,
      subject: v5.subject,
      params: v5.params,
      source: v5.source,
      orderId: v5.subject.ref,
      amountMinor: null,
      currency: null,
      recipientKind: null,
      recipientRef: null,
      recipientHolder: null,
      reason: "",
      expiresAt: v5.expiresAt,
      requiredApprovals: 1,
      policyVersion: 2,
      sourceProvider: null,
      sourceCapturedMinor: null,
      sourceRefundedMinor: null,
      recipientDisplay: null,
      customerId: "cus_1",
      orderNumber: null,
      customerName: null,
      orderItems: null,
    };
    expect(recomputeProposalHash(row)).toBe(expected);
    expect(storedProposalIntact({ ...row, hash: expected })).toBe(true);
    // A param altered in the row is no longer what was approved.
    const altered = { ...row, params: { ...v5.params, after: { ...(v5.params.after as object), city: "Lyon" } } };
    expect(storedProposalIntact({ ...altered, hash: expected })).toBe(false);
    // A refund-shaped version on a row without the refund's columns is not intact (never hashed with made-up values).
    expect(storedProposalIntact({ ...row, hashVersion: 4, hash: expected })).toBe(false);
    expect(storedProposalIntact({ ...row, kind: "refund", hashVersion: 3, hash: expected })).toBe(false);

    // Hash v6 (docs/action-kinds.md, "Who confirms"): v5 plus who confirms, bound like every other field.
    const v6 = { ...row, hashVersion: 6, confirmation: "customer" };
    const h6 = recomputeProposalHash(v6);
    expect(h6).not.toBe(expected);
    expect(storedProposalIntact({ ...v6, hash: h6 })).toBe(true);
    expect(storedProposalIntact({ ...v6, confirmation: "both", hash: h6 })).toBe(false);
    expect(storedProposalIntact({ ...v6, confirmation: "reviewers", hash: h6 })).toBe(false);
    // A v5 row ignores the column (a CHECK keeps it "reviewers"); a v6 row without a valid one is not intact.
    expect(storedProposalIntact({ ...row, confirmation: "customer", hash: expected })).toBe(true);
    expect(storedProposalIntact({ ...v6, confirmation: "nobody", hash: h6 })).toBe(false);
  });
});
