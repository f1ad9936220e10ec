// A postal address as the product stores, shows and hashes it (an order's shipping address, the address-change
// kind's before → after). Normalised before anything else sees it: Unicode NFC, whitespace trimmed and collapsed,
// empty optional lines as null, the country as an ISO 3166-1 alpha-2 code that exists (i18n-iso-countries), and the
// postal code upper-cased and checked against the country's format (postcode-validator) wherever the country has
// one. Refusals name the field in the wire form's spelling (snake_case), so an agent or an Orders API client can fix
// exactly that field. Lengths are bounded by what a person can check and the database keeps.
import countries from "i18n-iso-countries";
import { postcodeValidator, postcodeValidatorExistsForCountry } from "postcode-validator";
import { z } from "zod";

export const ADDRESS_LIMITS = { name: 200, line: 200, city: 120, postalCode: 16, region: 120 } as const;

/** The normalised address (camelCase, as stored in jsonb and hashed). */
export type PostalAddress = {
  name: string;
  line1: string;
  line2: string | null;
  city: string;
  postalCode: string;
  region: string | null;
  country: string;
};

const text = (max: number) => z.string().max(max * 4, `at most ${max} characters`);

/** The wire form (Orders API `shipping_address`, the agent's `new_address`): strict, every key present. */
export const postalAddressInput = z.strictObject({
  name: text(ADDRESS_LIMITS.name).describe("The recipient's name as it goes on the parcel."),
  line1: text(ADDRESS_LIMITS.line).describe("Street and number."),
  line2: text(ADDRESS_LIMITS.line).nullable().describe("Flat, floor, building; null when there is none."),
  city: text(ADDRESS_LIMITS.city),
  postal_code: text(ADDRESS_LIMITS.postalCode).describe(
    "The postal code as the customer wrote it; checked for the country.",
  ),
  region: text(ADDRESS_LIMITS.region)
    .nullable()
    .describe("State, province or region; null when the country uses none."),
  country: z.string().max(8).describe("ISO 3166-1 alpha-2 country code, e.g. ES, FR, US."),
});
export type PostalAddressInput = z.infer<typeof postalAddressInput>;

export type AddressProblem = { path: string; message: string };

// Control characters (C0 but the tab, which counts as a space; DEL, C1) and line breaks never belong on a label line.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/u;

/** NFC, trimmed, inner whitespace collapsed to one space. */
function clean(s: string): string {
  return s.normalize("NFC").trim().replace(/\s+/gu, " ");
}

/**
 * The address normalised, or every problem found (never only the first). `country` must be a code that exists;
 * the postal code must match the country's format when the country has one (a country without postal codes may
 * leave it empty).
 */
export function normalisePostalAddress(
  input: PostalAddressInput,
): { ok: true; address: PostalAddress } | { ok: false; problems: AddressProblem[] } {
  const problems: AddressProblem[] = [];
  const field = (path: string, raw: string, max: number, required: boolean): string | null => {
    if (CONTROL.test(raw)) {
      problems.push({ path, message: "must not contain control characters or line breaks" });
      return null;
    }
    const v = clean(raw);
    if (v === "") {
      if (required) problems.push({ path, message: "must not be empty" });
      return null;
    }
    if ([...v].length > max) problems.push({ path, message: `at most ${max} characters` });
    return v;
  };
  const name = field("name", input.name, ADDRESS_LIMITS.name, true);
  const line1 = field("line1", input.line1, ADDRESS_LIMITS.line, true);
  const line2 = input.line2 === null ? null : field("line2", input.line2, ADDRESS_LIMITS.line, false);
  const city = field("city", input.city, ADDRESS_LIMITS.city, true);
  const region = input.region === null ? null : field("region", input.region, ADDRESS_LIMITS.region, false);

  const country = clean(input.country).toUpperCase();
  const countryOk = /^[A-Z]{2}$/.test(country) && countries.isValid(country);
  if (!countryOk)
    problems.push({ path: "country", message: "must be an ISO 3166-1 alpha-2 code that exists, e.g. ES" });

  const postalCode = (field("postal_code", input.postal_code, ADDRESS_LIMITS.postalCode, false) ?? "").toUpperCase();
  if (countryOk) {
    const hasFormat = postcodeValidatorExistsForCountry(country);
    if (hasFormat && postalCode === "")
      problems.push({ path: "postal_code", message: `${country} addresses need a postal code` });
    else if (hasFormat && !postcodeValidator(postalCode, country))
      problems.push({ path: "postal_code", message: `is not a valid postal code for ${country}` });
  }
  if (problems.length > 0 || name === null || line1 === null || city === null) return { ok: false, problems };
  return { ok: true, address: { name, line1, line2, city, postalCode, region, country } };
}

/** The fields in a fixed order, for a before → after diff: which ones differ. */
export function changedAddressFields(before: PostalAddress | null, after: PostalAddress): (keyof PostalAddress)[] {
  const keys: (keyof PostalAddress)[] = ["name", "line1", "line2", "city", "postalCode", "region", "country"];
  return keys.filter((k) => before === null || before[k] !== after[k]);
}
