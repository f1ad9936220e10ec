import { describe, expect, it } from "vitest";
import { e164, PHONE_INPUT_MAX } from "./phone";

describe("e164", () => {
  it("normalises a valid international number, whatever its spacing and punctuation", () => {
    expect(e164("+34 612 34 56 78")).toBe("+34612345678");
    expect(e164(" +1 (415) 555-2671 ")).toBe("+14155552671");
  });

  it("refuses a national number, an unknown country code, a number too short for its plan, and text", () => {
    for (const bad of ["612345678", "+999 1234567", "+34 12", "call me", "", "+"]) expect(e164(bad), bad).toBeNull();
  });

  it("refuses input longer than the column's bound before parsing it", () => {
    const padded = `+34 612 34 56 78${" ".repeat(PHONE_INPUT_MAX)}x`;
    expect(e164(padded)).toBeNull();
    expect(e164(`+34612345678${" ".repeat(PHONE_INPUT_MAX - 12)}`)).toBe("+34612345678");
  });
});
