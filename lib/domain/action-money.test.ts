import { describe, expect, it } from "vitest";
import { actionMoneyOf } from "./action-money";

describe("actionMoneyOf", () => {
  it("is a refund's columns first, then the params' money, else none", () => {
    expect(actionMoneyOf({ amountMinor: 1250, currency: "EUR", params: null })).toEqual({
      minor: 1250,
      currency: "EUR",
    });
    expect(
      actionMoneyOf({ amountMinor: null, currency: null, params: { money: { minor: 2000, currency: "USD" } } }),
    ).toEqual({
      minor: 2000,
      currency: "USD",
    });
    expect(actionMoneyOf({ amountMinor: null, currency: null, params: { money: null } })).toBeNull();
    expect(actionMoneyOf({ amountMinor: null, currency: null, params: { after: {} } })).toBeNull();
    expect(actionMoneyOf({ amountMinor: null, currency: null, params: null })).toBeNull();
  });

  it("refuses money it cannot count rather than counting it as nothing", () => {
    for (const money of [
      { minor: -1, currency: "EUR" },
      { minor: 1.5, currency: "EUR" },
      { minor: 1, currency: "eur" },
      { minor: "1", currency: "EUR" },
    ])
      expect(() => actionMoneyOf({ amountMinor: null, currency: null, params: { money } })).toThrow(/params.money/);
  });
});
