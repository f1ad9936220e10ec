// A phone number as a system of record stores it: E.164 (a leading + and the country code), so it means the same
// wherever it is read. Checked against the country's numbering plan with libphonenumber-js, the field's kept library
// (its metadata ships in the package: no download, no network). Used by the Orders API (a customer's phone on record)
// and the contact-change kind (a customer's new phone).
import { parsePhoneNumberFromString } from "libphonenumber-js/max";

/** The longest E.164 number is 15 digits and the +; what people type adds spaces and punctuation. */
export const PHONE_INPUT_MAX = 32;

export const PHONE_EXPECTED = "a phone number in E.164 form (+ country code and number, e.g. +34612345678)";

/** The number in E.164 form, or null when it is not a valid number in international form. */
export function e164(raw: string): string | null {
  const trimmed = raw.normalize("NFC").trim();
  if (!trimmed.startsWith("+") || trimmed.length > PHONE_INPUT_MAX) return null;
  const phone = parsePhoneNumberFromString(trimmed);
  return phone?.isValid() ? phone.number : null;
}
