// A contact value as the customer gave it → the normalised value the system of record stores, or why not; and the
// masked form a reviewer sees of the value on record. Validation uses kept libraries, no hand-written patterns:
// e-mail syntax and the domain's shape (labels and an alphabetic top-level domain) with zod's `z.email()`, a phone
// number as E.164 with libphonenumber-js (its metadata ships in the package: no download, no network). No DNS lookup.
import { z } from "zod";
import { e164, PHONE_EXPECTED } from "@/lib/domain/phone";
import type { ContactField } from "./tools";

export type ContactValueResult = { ok: true; value: string } | { ok: false; expected: string; message: string };

const email = z.email();

/** Normalises and validates a new contact value for `field`. */
export function normaliseContactValue(field: ContactField, raw: string): ContactValueResult {
  const trimmed = raw.normalize("NFC").trim();
  if (field === "email") {
    // The domain is compared without case; the local part is kept as given (RFC 5321 leaves it to the mail host).
    const at = trimmed.lastIndexOf("@");
    const value = at < 0 ? trimmed : `${trimmed.slice(0, at)}@${trimmed.slice(at + 1).toLowerCase()}`;
    if (!email.safeParse(value).success)
      return {
        ok: false,
        expected: "an e-mail address (name@domain.tld)",
        message: "That is not a valid e-mail address.",
      };
    return { ok: true, value };
  }
  // E.164 only: a leading + and the country code, so the number means the same wherever it is read.
  const phone = e164(trimmed);
  if (!phone)
    return { ok: false, expected: PHONE_EXPECTED, message: "That is not a valid phone number in international form." };
  return { ok: true, value: phone };
}

/** The value on record as a reviewer sees it: enough to recognise it, not enough to read it. */
export function maskContactValue(field: ContactField, value: string | null): string | null {
  if (value === null || value === "") return null;
  if (field === "phone") return `${value.slice(0, 3)}${"•".repeat(Math.max(0, value.length - 5))}${value.slice(-2)}`;
  const at = value.lastIndexOf("@");
  if (at < 0) return "•••";
  const domain = value.slice(at + 1);
  const dot = domain.lastIndexOf(".");
  const host = dot < 0 ? domain : domain.slice(0, dot);
  return `${value[0]}•••@${host[0] ?? ""}•••${dot < 0 ? "" : domain.slice(dot)}`;
}
