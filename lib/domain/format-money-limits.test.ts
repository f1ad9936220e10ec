// Limits of the typed-amount parser and the currency exponent (found unchecked by mutation testing,
// npm run test:mutation): an amount a person types is either exact minor units or refused.
import { describe, expect, it } from "vitest";
import { currencyExponent, formatMinor, parseMajorToMinor } from "./format-money";

describe("currencyExponent", () => {
  it("is the currency's own number of decimals", () => {
    expect(currencyExponent("EUR")).toBe(2);
    expect(currencyExponent("JPY")).toBe(0);
    expect(currencyExponent("KWD")).toBe(3);
    expect(currencyExponent("CLF")).toBe(4);
  });
  it("formats three-decimal currencies by their exponent", () => {
    expect(formatMinor(1234, "KWD", "en-US")).toBe("KWD\u00a01.234");
  });
});

describe("parseMajorToMinor", () => {
  it("tolerates surrounding white space only", () => {
    expect(parseMajorToMinor(" \t12.5\n ", "EUR")).toBe(1250);
    expect(parseMajorToMinor("1 2", "EUR")).toBeNull();
    expect(parseMajorToMinor("x12", "EUR")).toBeNull();
    expect(parseMajorToMinor("12x", "EUR")).toBeNull();
  });
  it("takes up to twelve integer digits and as many decimals as the currency has", () => {
    expect(parseMajorToMinor("999999999999", "EUR")).toBe(99_999_999_999_900);
    expect(parseMajorToMinor("9999999999999", "EUR")).toBeNull();
    expect(parseMajorToMinor("1.234", "KWD")).toBe(1234);
    expect(parseMajorToMinor("1.2345", "KWD")).toBeNull();
    expect(parseMajorToMinor("1,5", "KWD")).toBe(1500);
    expect(parseMajorToMinor("0.5", "EUR")).toBe(50);
    expect(parseMajorToMinor("7", "JPY")).toBe(7);
    expect(parseMajorToMinor("7.", "JPY")).toBeNull();
    expect(parseMajorToMinor("1.", "EUR")).toBeNull();
    expect(parseMajorToMinor(".5", "EUR")).toBeNull();
    expect(parseMajorToMinor("1.5.0", "EUR")).toBeNull();
  });
  it("refuses what would not be a safe integer of minor units", () => {
    expect(parseMajorToMinor("900719925474", "CLF")).toBe(9_007_199_254_740_000);
    expect(parseMajorToMinor("999999999999", "CLF")).toBeNull();
  });
});
