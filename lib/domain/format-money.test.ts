import { describe, expect, it } from "vitest";
import { formatMinor } from "./format-money";

describe("formatMinor", () => {
  it("formats by locale and currency exponent", () => {
    expect(formatMinor(12345, "EUR", "es-ES")).toBe("123,45\u00a0€");
    expect(formatMinor(12345, "USD", "en-US")).toBe("$123.45");
    expect(formatMinor(500, "JPY", "en-US")).toBe("¥500");
  });
});
