// Boundaries and refusals of the pure domain rules that mutation testing (npm run test:mutation) found
// unchecked: each expectation here fails if the guarded line is changed or removed.
import { describe, expect, it } from "vitest";
import { money, refundableMinor, sumMinor, isMinorUnits } from "./money";
import { assertCan, can, isRole } from "./permissions";
import {
  canonicalProposalJson,
  computeProposalHash,
  hashInputOf,
  proposalHashMatches,
  proposalHashPayload,
  recomputeProposalHash,
  type HashableProposal,
} from "./proposal-hash";
import { isAwaitingReview, isProposalStatus, proposalStatus as S, refusalCodeFor } from "./proposal-state";
import { isExecutionSettled } from "./execution-state";
import {
  computeWebhookSignature,
  generateWebhookSecret,
  signWebhook,
  verifyWebhookSignature,
  SIGNATURE_VERSION,
  WEBHOOK_SECRET_PREFIX,
} from "./webhook-signature";
import { AppError } from "./outcome";

describe("money", () => {
  it("accepts only safe integers as minor units", () => {
    expect(isMinorUnits(12)).toBe(true);
    expect(isMinorUnits("12")).toBe(false);
    expect(isMinorUnits(1.5)).toBe(false);
    expect(isMinorUnits(Number.MAX_SAFE_INTEGER + 1)).toBe(false);
  });
  it("refuses bad amounts and currencies with a message naming the value", () => {
    expect(() => money(1.5, "EUR")).toThrow("minor units must be a safe integer, got 1.5");
    expect(() => money(100, "EURO")).toThrow("currency must be an ISO 4217 code, got EURO");
    expect(() => money(100, "XEUR")).toThrow(/ISO 4217/);
    expect(() => money(100, "eur")).toThrow(/ISO 4217/);
    expect(money(100, "EUR")).toEqual({ minor: 100, currency: "EUR" });
  });
  it("sums one currency only, and refuses an overflow", () => {
    expect(() => sumMinor([money(1, "EUR"), money(2, "USD")], "EUR")).toThrow("cannot add USD to EUR");
    expect(() =>
      sumMinor(
        [
          { minor: Number.MAX_SAFE_INTEGER, currency: "EUR" },
          { minor: 1, currency: "EUR" },
        ],
        "EUR",
      ),
    ).toThrow("amount overflow");
    expect(sumMinor([money(1, "EUR"), money(2, "EUR")], "EUR")).toBe(3);
  });
  it("never proposes a negative refundable amount, and zero at exactly nothing left", () => {
    expect(refundableMinor({ capturedMinor: 100, refundedOrPendingMinor: 60, openProposalsMinor: 40 })).toBe(0);
    expect(refundableMinor({ capturedMinor: 100, refundedOrPendingMinor: 60, openProposalsMinor: 50 })).toBe(0);
    expect(refundableMinor({ capturedMinor: 100, refundedOrPendingMinor: 60, openProposalsMinor: 39 })).toBe(1);
  });
});

describe("permissions", () => {
  it("knows its roles", () => {
    expect(isRole("reviewer")).toBe(true);
    expect(isRole("root")).toBe(false);
    expect(isRole(42)).toBe(false);
    expect(isRole("")).toBe(false);
  });
  it("assertCan throws permission_denied exactly when the role lacks the permission", () => {
    expect(can(["reviewer"], "admin:manage")).toBe(false);
    expect(() => assertCan(["reviewer"], "admin:manage")).toThrow(AppError);
    expect(() => assertCan(["reviewer"], "admin:manage")).toThrow("Your role does not allow this.");
    expect(() => assertCan(["admin"], "admin:manage")).not.toThrow();
  });
});

const row: HashableProposal = {
  hashVersion: 2,
  id: "0b9d2c5e-1f3a-4c1e-9a7b-2f4e6d8c0a11",
  tenantId: "5f0e6a1b-2c3d-4e5f-8a9b-0c1d2e3f4a5b",
  tool: "prepare_refund",
  kind: "refund",
  subject: { type: "order", ref: "7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d" },
  params: null,
  source: null,
  orderId: "7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d",
  amountMinor: 4599,
  currency: "EUR",
  recipientKind: "original_payment",
  recipientRef: "pi_123",
  recipientHolder: "Ana García",
  reason: "damaged",
  expiresAt: new Date("2026-11-29T20:15:00.000Z"),
  requiredApprovals: 2,
  policyVersion: 3,
  sourceProvider: null,
  sourceCapturedMinor: null,
  sourceRefundedMinor: null,
  recipientDisplay: "Visa •••• 4242",
  customerId: "cus_1",
  orderNumber: null,
  customerName: null,
  orderItems: null,
};

describe("proposal hash", () => {
  it("maps the stored row to exactly the hashed fields", () => {
    expect(hashInputOf(row)).toEqual({
      v: 2,
      id: row.id,
      tenantId: row.tenantId,
      tool: row.tool,
      orderId: row.orderId,
      amount: { minor: 4599, currency: "EUR" },
      recipient: { kind: "original_payment", ref: "pi_123", holder: "Ana García", display: "Visa •••• 4242" },
      reason: "damaged",
      expiresAt: row.expiresAt,
      requiredApprovals: 2,
      policyVersion: 3,
      source: null,
      order: null,
    });
    // A v3 row: the snapshot's columns, with the recipient's reference as the payment it was read from.
    const v3 = {
      ...row,
      hashVersion: 3,
      sourceProvider: "stripe",
      sourceCapturedMinor: 9000,
      sourceRefundedMinor: 1000,
    };
    expect(hashInputOf(v3).source).toEqual({
      provider: "stripe",
      paymentRef: "pi_123",
      capturedMinor: 9000,
      refundedMinor: 1000,
    });
    expect(recomputeProposalHash({ ...v3, sourceRefundedMinor: 1001 })).not.toBe(recomputeProposalHash(v3));
    expect(recomputeProposalHash(row)).toBe(computeProposalHash(hashInputOf(row)));
    expect(recomputeProposalHash({ ...row, amountMinor: 4598 })).not.toBe(recomputeProposalHash(row));
    expect(recomputeProposalHash({ ...row, requiredApprovals: 1 })).not.toBe(recomputeProposalHash(row));
    expect(recomputeProposalHash({ ...row, policyVersion: 4 })).not.toBe(recomputeProposalHash(row));
    expect(recomputeProposalHash({ ...row, tool: "lookup_order" })).not.toBe(recomputeProposalHash(row));
  });
  it("is sha256 hex of the canonical JSON", async () => {
    const { createHash } = await import("node:crypto");
    expect(computeProposalHash(hashInputOf(row))).toBe(
      createHash("sha256")
        .update(canonicalProposalJson(hashInputOf(row)), "utf8")
        .digest("hex"),
    );
  });
  it("refuses a fractional amount and an invalid expiry", () => {
    expect(() => proposalHashPayload({ ...hashInputOf(row), amount: { minor: 45.99, currency: "EUR" } })).toThrow(
      "amount.minor must be an integer number of minor units",
    );
    expect(() => proposalHashPayload({ ...hashInputOf(row), expiresAt: new Date("nope") })).toThrow(
      "expiresAt is not a valid date",
    );
  });
  it("matches only the exact 64-character lowercase hex hash", () => {
    const input = hashInputOf(row);
    const hash = computeProposalHash(input);
    expect(proposalHashMatches(input, hash)).toBe(true);
    expect(proposalHashMatches(input, hash.toUpperCase())).toBe(false);
    expect(proposalHashMatches(input, `${hash}0`)).toBe(false);
    expect(proposalHashMatches(input, `0${hash}`)).toBe(false);
    expect(proposalHashMatches(input, "0".repeat(64))).toBe(false);
  });
});

describe("proposal and execution states", () => {
  it("recognises its statuses", () => {
    expect(isProposalStatus("pending_approval")).toBe(true);
    expect(isProposalStatus("paid")).toBe(false);
  });
  it("is awaiting review only while pending and before its expiry", () => {
    const at = new Date("2026-11-29T20:00:00Z");
    expect(isAwaitingReview({ status: S.pendingApproval, expiresAt: new Date(at.getTime() + 1) }, at)).toBe(true);
    expect(isAwaitingReview({ status: S.pendingApproval, expiresAt: at }, at)).toBe(false);
    expect(isAwaitingReview({ status: S.approved, expiresAt: new Date(at.getTime() + 60_000) }, at)).toBe(false);
  });
  it("names every end state in a refused approval", () => {
    expect(refusalCodeFor(S.expired)).toBe("expired");
    expect(refusalCodeFor(S.rejected)).toBe("rejected");
    expect(refusalCodeFor(S.invalidated)).toBe("invalidated");
    expect(refusalCodeFor(S.approved)).toBe("permission_denied");
  });
  it("settles an execution only on a provider's final answer", () => {
    expect(isExecutionSettled("succeeded")).toBe(true);
    expect(isExecutionSettled("failed")).toBe(true);
    expect(isExecutionSettled("sending")).toBe(false);
    expect(isExecutionSettled("unknown")).toBe(false);
  });
});

describe("webhook signature", () => {
  const secret = "whsec_test";
  const now = new Date("2026-11-30T10:00:00Z");
  const ts = Math.floor(now.getTime() / 1000);
  it("refuses an empty secret and a timestamp that is not unix seconds", () => {
    expect(() => computeWebhookSignature("", ts, "{}")).toThrow("webhook secret is empty");
    expect(() => computeWebhookSignature(secret, -1, "{}")).toThrow("timestamp must be unix seconds");
    expect(() => computeWebhookSignature(secret, 1.5, "{}")).toThrow("timestamp must be unix seconds");
    expect(computeWebhookSignature(secret, 0, "{}")).toMatch(/^[0-9a-f]{64}$/);
  });
  it("signs '<timestamp>.<body>' with HMAC-SHA256 under the v1 scheme", async () => {
    const { createHmac } = await import("node:crypto");
    expect(SIGNATURE_VERSION).toBe("v1");
    const h = signWebhook({ id: "d1", secret, body: "{}", now });
    expect(h["X-Webhook-Signature"]).toBe(
      `v1=${createHmac("sha256", secret).update(`${ts}.{}`, "utf8").digest("hex")}`,
    );
  });
  it("accepts a good signature among several, separated by commas or spaces", () => {
    const good = computeWebhookSignature(secret, ts, "{}");
    const base = { secret, body: "{}", timestamp: String(ts), now };
    expect(verifyWebhookSignature({ ...base, signature: `v1=${"0".repeat(64)},v1=${good}` })).toEqual({ ok: true });
    expect(verifyWebhookSignature({ ...base, signature: `v1=${"0".repeat(64)} v1=${good}` })).toEqual({ ok: true });
  });
  it("refuses malformed timestamps and candidates of the wrong length", () => {
    const good = computeWebhookSignature(secret, ts, "{}");
    const base = { secret, body: "{}", now, signature: `v1=${good}` };
    expect(verifyWebhookSignature({ ...base, timestamp: `x${ts}` })).toEqual({ ok: false, reason: "malformed" });
    expect(verifyWebhookSignature({ ...base, timestamp: `${ts}x` })).toEqual({ ok: false, reason: "malformed" });
    expect(verifyWebhookSignature({ ...base, timestamp: String(ts), signature: `v1=${good}00` })).toEqual({
      ok: false,
      reason: "mismatch",
    });
    expect(verifyWebhookSignature({ ...base, timestamp: String(ts), signature: `v1=00${good}` })).toEqual({
      ok: false,
      reason: "mismatch",
    });
  });
  it("makes secrets with the whsec_ prefix", () => {
    expect(WEBHOOK_SECRET_PREFIX).toBe("whsec_");
    expect(generateWebhookSecret()).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  });
});
