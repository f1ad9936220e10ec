import { describe, expect, it } from "vitest";
import { formatMinor } from "./format-money";

describe("formatMinor", () => {
  it("formats by locale and currency exponent", () => {
    expect(formatMinor(12345, "EUR", "es-ES")).toBe("123,45\u00a0€");
    expect(formatMinor(12345, "USD", "en-US")).toBe("$123.45");
    expect(formatMinor(500, "JPY", "en-US")).toBe("¥500");
  });
});

import { parseMajorToMinor } from "./format-money";

describe("parseMajorToMinor", () => {
  it("parses dot and comma decimals exactly", () => {
    expect(parseMajorToMinor("12.50", "EUR")).toBe(1250);
    expect(parseMajorToMinor("12,5", "EUR")).toBe(1250);
    expect(parseMajorToMinor("0.07", "USD")).toBe(7);
    expect(parseMajorToMinor("1234", "EUR")).toBe(123400);
    expect(parseMajorToMinor("500", "JPY")).toBe(500);
    // 0.1 + 0.2 style float errors cannot happen: 1.15 → 115, not 114.99999
    expect(parseMajorToMinor("1.15", "EUR")).toBe(115);
  });
  it("refuses anything else", () => {
    for (const bad of ["", "-1", "1.234", "1e3", "12.", "abc", "1,000.00", "5.5"]) {
      expect(parseMajorToMinor(bad, bad === "5.5" ? "JPY" : "EUR")).toBeNull();
    }
  });
});

import { minorToMajorInput, parseMoneyInput } from "./format-money";

describe("parseMoneyInput (amounts typed in major units, e.g. policy thresholds in Admin)", () => {
  const ok = (minor: number) => ({ ok: true, minor });
  const bad = (problem: string) => ({ ok: false, problem });

  it("converts exactly at the cent: 19.99 is 1999 and 0.29 is 29 (floating point would give 1998 and 28)", () => {
    expect(parseMoneyInput("19.99", "EUR")).toEqual(ok(1999));
    expect(parseMoneyInput("0.29", "EUR")).toEqual(ok(29));
    expect(parseMoneyInput("0.01", "EUR")).toEqual(ok(1));
    expect(parseMoneyInput("0", "EUR")).toEqual(ok(0));
    expect(parseMoneyInput("1000.00", "USD")).toEqual(ok(100_000)); // the US demo tenant's two-reviewer threshold
  });

  it("takes the currency's code before or after, any case, and the comma as decimal separator", () => {
    expect(parseMoneyInput("12.50 EUR", "EUR")).toEqual(ok(1250));
    expect(parseMoneyInput("eur 12,5", "EUR")).toEqual(ok(1250));
    expect(parseMoneyInput("  12.50EUR ", "EUR")).toEqual(ok(1250));
    expect(parseMoneyInput("500 JPY", "JPY")).toEqual(ok(500));
  });

  it("refuses, with the reason, another currency, too many decimals, signs, exponents and grouping", () => {
    expect(parseMoneyInput("12.50 USD", "EUR")).toEqual(bad("currency"));
    expect(parseMoneyInput("12.505", "EUR")).toEqual(bad("decimals"));
    expect(parseMoneyInput("5.5", "JPY")).toEqual(bad("decimals"));
    for (const input of ["", " ", "-1", "+1", "1e3", "12.", ".5", "1,000.00", "1 000", "€12", "EUR 1 EUR", "twelve"]) {
      expect(parseMoneyInput(input, "EUR"), input).toEqual(bad("format"));
    }
  });

  it("twelve major digits are the most: exactly at that boundary it converts, one more is too large", () => {
    expect(parseMoneyInput("999999999999.99", "EUR")).toEqual(ok(99_999_999_999_999));
    expect(parseMoneyInput("000999999999999.99", "EUR")).toEqual(ok(99_999_999_999_999)); // leading zeros do not count
    expect(parseMoneyInput("1000000000000", "EUR")).toEqual(bad("too_large"));
  });

  it("round-trips with minorToMajorInput", () => {
    expect(minorToMajorInput(1250, "EUR")).toBe("12.50");
    expect(minorToMajorInput(7, "USD")).toBe("0.07");
    expect(minorToMajorInput(0, "EUR")).toBe("0.00");
    expect(minorToMajorInput(500, "JPY")).toBe("500");
    for (const [minor, currency] of [
      [1, "EUR"],
      [1999, "EUR"],
      [100_000, "USD"],
      [99_999_999_999_999, "EUR"],
      [123, "JPY"],
      [1234, "KWD"],
    ] as const) {
      expect(parseMoneyInput(minorToMajorInput(minor, currency), currency)).toEqual(ok(minor));
    }
  });
});
