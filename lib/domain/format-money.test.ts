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
