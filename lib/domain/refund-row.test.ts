import { describe, expect, it } from "vitest";
import { asRefund } from "./refund-row";

describe("asRefund", () => {
  const row = { id: "p1", kind: "refund", amountMinor: 500, currency: "EUR", order: { number: "ORD-1" }, reason: "x" };

  it("passes a refund row through, typed with its refund columns non-null", () => {
    const r = asRefund(row);
    expect(r).toBe(row);
    expect(r.order.number).toBe("ORD-1");
  });

  it("throws on another kind's row", () => {
    expect(() => asRefund({ ...row, kind: "cancel_order" })).toThrow(/cancel_order proposal is not a refund/);
  });

  it("throws when a selected refund column is missing (0 and '' are never made up)", () => {
    expect(() => asRefund({ ...row, amountMinor: null })).toThrow(/amountMinor is missing/);
    expect(() => asRefund({ ...row, order: null })).toThrow(/order is missing/);
    expect(() => asRefund({ id: "p2", recipientRef: null })).toThrow(/recipientRef/);
  });

  it("checks only the columns a query selected", () => {
    expect(asRefund({ id: "p3", amountMinor: 0 }).amountMinor).toBe(0);
  });
});
