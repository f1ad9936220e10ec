import { describe, expect, it } from "vitest";
import {
  changedAddressFields,
  normalisePostalAddress,
  postalAddressInput,
  type PostalAddressInput,
} from "./postal-address";

const paris: PostalAddressInput = {
  name: "Ana García",
  line1: "10 Rue de Rivoli",
  line2: null,
  city: "Paris",
  postal_code: "75001",
  region: null,
  country: "FR",
};

const ok = (input: PostalAddressInput) => {
  const r = normalisePostalAddress(input);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.address;
};
const problems = (input: PostalAddressInput) => {
  const r = normalisePostalAddress(input);
  return r.ok ? [] : r.problems.map((p) => p.path);
};

describe("postal addresses", () => {
  it("normalises: NFC, trimmed, inner whitespace collapsed, country and postal code upper-cased, empty lines null", () => {
    const decomposed = "Ana Garci\u0301a"; // "í" as i + combining acute
    expect(
      ok({
        ...paris,
        name: `  ${decomposed} `,
        line1: "10   Rue\tde Rivoli",
        line2: "   ",
        country: " fr",
        region: "",
      }),
    ).toEqual({
      name: "Ana García",
      line1: "10 Rue de Rivoli",
      line2: null,
      city: "Paris",
      postalCode: "75001",
      region: null,
      country: "FR",
    });
    expect(ok({ ...paris, country: "GB", postal_code: "sw1a 1aa", city: "London" }).postalCode).toBe("SW1A 1AA");
  });

  it("checks the postal code against the country's format (a kept library, not our own patterns)", () => {
    expect(problems({ ...paris, postal_code: "7500" })).toEqual(["postal_code"]);
    expect(problems({ ...paris, country: "ES", postal_code: "28013" })).toEqual([]);
    expect(problems({ ...paris, country: "ES", postal_code: "2801X" })).toEqual(["postal_code"]);
    expect(problems({ ...paris, country: "US", postal_code: "94105-1234" })).toEqual([]);
    expect(problems({ ...paris, country: "US", postal_code: "9410" })).toEqual(["postal_code"]);
    expect(problems({ ...paris, country: "CA", postal_code: "K1A 0B1" })).toEqual([]);
    // A country with postal codes needs one; one without may leave it empty.
    expect(problems({ ...paris, postal_code: " " })).toEqual(["postal_code"]);
    expect(problems({ ...paris, country: "HK", postal_code: "" })).toEqual([]);
  });

  it("refuses a country code that does not exist, names every problem, and refuses control characters", () => {
    expect(problems({ ...paris, country: "XX" })).toEqual(["country"]);
    expect(problems({ ...paris, country: "FRA" })).toEqual(["country"]);
    expect(problems({ ...paris, country: "" })).toEqual(["country"]);
    expect(problems({ ...paris, name: " ", line1: "", city: "\n" })).toEqual(["name", "line1", "city"]);
    expect(problems({ ...paris, line1: "10 Rue\u0000 de Rivoli" })).toEqual(["line1"]);
    expect(problems({ ...paris, line2: "Apt 4\u2028Floor 2" })).toEqual(["line2"]);
  });

  it("bounds every field (after normalisation, in characters)", () => {
    expect(problems({ ...paris, name: "a".repeat(200) })).toEqual([]);
    expect(problems({ ...paris, name: "a".repeat(201) })).toEqual(["name"]);
    expect(problems({ ...paris, city: "é".repeat(121) })).toEqual(["city"]);
    // The wire schema refuses what is far too long before normalising it at all.
    expect(postalAddressInput.safeParse({ ...paris, line1: "x".repeat(801) }).success).toBe(false);
    expect(postalAddressInput.safeParse({ ...paris, line1: "x".repeat(800) }).success).toBe(true);
  });

  it("the wire form is strict: every key, no extra ones, null (not absent) for no second line or region", () => {
    expect(postalAddressInput.safeParse(paris).success).toBe(true);
    const { line2: _l2, ...noLine2 } = paris;
    expect(postalAddressInput.safeParse(noLine2).success).toBe(false);
    expect(postalAddressInput.safeParse({ ...paris, extra: 1 }).success).toBe(false);
  });

  it("names the fields that changed, in a fixed order", () => {
    const before = ok(paris);
    expect(changedAddressFields(before, before)).toEqual([]);
    expect(changedAddressFields(before, ok({ ...paris, city: "Lyon", postal_code: "69001" }))).toEqual([
      "city",
      "postalCode",
    ]);
    expect(changedAddressFields(null, before)).toHaveLength(7);
  });
});
