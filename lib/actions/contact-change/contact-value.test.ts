// The new value's validation (kept libraries: zod's e-mail, libphonenumber-js's E.164) and the reviewer's mask.
import { describe, expect, it } from "vitest";
import { maskContactValue, normaliseContactValue } from "./contact-value";

describe("a new contact value", () => {
  it("an e-mail address: syntax and a domain with an alphabetic top-level domain; the domain's case normalised", () => {
    expect(normaliseContactValue("email", "  Ana.Garcia@Example.COM ")).toEqual({
      ok: true,
      value: "Ana.Garcia@example.com",
    });
    for (const bad of [
      "ana",
      "ana@",
      "@example.com",
      "ana@example",
      "ana@example.c",
      "ana@exa mple.com",
      "ana@@x.com",
      "ana@127.0.0.1",
      "ana@example.123",
    ])
      expect(normaliseContactValue("email", bad), bad).toMatchObject({ ok: false });
  });

  it("a phone number: E.164 only (+ and the country code), checked against the country's numbering plan", () => {
    expect(normaliseContactValue("phone", "+34 612 34 56 78")).toEqual({ ok: true, value: "+34612345678" });
    expect(normaliseContactValue("phone", "+1 (415) 555-2671")).toEqual({ ok: true, value: "+14155552671" });
    for (const bad of ["612345678", "+34 12", "+34 612 34 56 78 90 12", "+999 1234567", "phone", "+34abc"])
      expect(normaliseContactValue("phone", bad), bad).toMatchObject({ ok: false });
  });

  it("the value on record, masked for the reviewer", () => {
    expect(maskContactValue("email", "ana.garcia@example.com")).toBe("a•••@e•••.com");
    expect(maskContactValue("phone", "+34612345678")).toBe("+34•••••••78");
    expect(maskContactValue("email", null)).toBeNull();
  });
});
