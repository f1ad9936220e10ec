// Redaction before anything reaches the audit trail (docs/design.md "Audit trail"). Pure code: the keyed
// fingerprint function is passed in (lib/server/audit/fingerprint.ts binds it to AUDIT_HMAC_KEY).
//
// Rules, by field name (at any depth) and then by content:
// - secrets (authorization, keys, tokens, passwords, cookies, sessions…) are dropped entirely;
// - fields a tool's allow-list names stay in clear (still scrubbed, still truncated);
// - personal fields (email, name, phone, address, IBAN, card, holder, customer, recipient…) are replaced
//   by a keyed-HMAC fingerprint "fp:<16 hex>", so an auditor can find every event about a value
//   without seeing it;
// - any other text is scrubbed (emails, card numbers, IBANs, phone numbers, bearer tokens, JWTs and long
//   opaque tokens inside free text) and truncated.
import { createHmac } from "node:crypto";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Fingerprinter = (value: string) => string;

export type RedactionPolicy = {
  /** Field names whose values may stay in clear (case-insensitive, any depth). */
  clear?: readonly string[];
  /** Exact personal strings known to the caller (the customer's name…) scrubbed from free text too. */
  knownPersonal?: readonly (string | null | undefined)[];
  /**
   * Keyed fingerprints the caller made itself with the same key (never a value taken from its input): kept exactly
   * where they appear — their hex digits are not a phone or card number — and listed in `fingerprints`.
   */
  madeFingerprints?: readonly (string | null | undefined)[];
  /** Free text longer than this is cut (after scrubbing). */
  maxTextLength?: number;
};

export type Redacted = { data: Json; fingerprints: string[] };

export const FINGERPRINT_PREFIX = "fp:";
const DEFAULT_MAX_TEXT = 200;
const MAX_DEPTH = 6;
const MAX_ENTRIES = 50;

/** Case, spacing and separators do not change who or what a value designates. */
export function normalizeForFingerprint(value: string): string {
  // (No trim: the replace drops white space everywhere, the ends included.)
  return value
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\s\-()]/g, "");
}

/** `fp:` + the first 16 hex of HMAC-SHA256(key, normalized value). */
export function fingerprintWithKey(key: string, value: string): string {
  if (!key) throw new Error("fingerprint key is empty");
  return (
    FINGERPRINT_PREFIX + createHmac("sha256", key).update(normalizeForFingerprint(value)).digest("hex").slice(0, 16)
  );
}

const SECRET_TOKENS = new Set([
  "authorization",
  "auth",
  "bearer",
  "password",
  "passwd",
  "passphrase",
  "pwd",
  "secret",
  "token",
  "apikey",
  "key",
  "cookie",
  "cookies",
  "session",
  "credential",
  "credentials",
  "signature",
  "otp",
  "cvv",
  "cvc",
  "pin",
]);
const PERSONAL_TOKENS = new Set([
  "email",
  "mail",
  "name",
  "firstname",
  "lastname",
  "fullname",
  "surname",
  "phone",
  "mobile",
  "tel",
  "telephone",
  "address",
  "street",
  "city",
  "postcode",
  "postal",
  "zip",
  "iban",
  "bic",
  "account",
  "card",
  "pan",
  "holder",
  "birthdate",
  "dob",
  "ssn",
  "passport",
  "ip",
  "customer",
  "user",
  "recipient",
  "payee",
  "beneficiary",
]);

function keyTokens(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]/); // empty tokens match no word
}

export function isSecretKey(key: string): boolean {
  const compact = key.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (
    compact.includes("apikey") ||
    compact.includes("password") ||
    compact.includes("secret") ||
    compact.includes("token")
  )
    return true;
  return keyTokens(key).some((t) => SECRET_TOKENS.has(t));
}

export function isPersonalKey(key: string): boolean {
  const compact = key.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (compact.includes("email") || compact.includes("iban") || compact.includes("phone")) return true;
  return keyTokens(key).some((t) => PERSONAL_TOKENS.has(t));
}

type Pattern = { re: RegExp; replace: (match: string, fp: Fingerprinter, seen: Set<string>) => string };

const mask = (value: string, fp: Fingerprinter, seen: Set<string>) => {
  const f = fp(value);
  seen.add(f);
  return f;
};

// Order matters: credentials first (a JWT contains dots and digits), then personal data.
/**
 * An IBAN candidate is masked when it holds six digits in a row. Words in lower case after its last group
 * ("… 0130 00 y más") are the sentence going on, not the number: they stay readable.
 */
function maskIban(m: string, fp: Fingerprinter, seen: Set<string>): string {
  const iban = m.replace(/(?:[ -][a-z]+)+$/, "");
  const after = m.slice(iban.length);
  return (/\d{6}/.test(iban.replace(/[ -]/g, "")) ? mask(iban, fp, seen) : iban) + after;
}

const PATTERNS: Pattern[] = [
  {
    re: /\b(bearer|basic)(\s+|%20)[A-Za-z0-9._~+/=-]+/gi,
    replace: (m) => `${m.slice(0, m.search(/\s|%20/))} [secret]`,
  },
  { re: /\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.?[A-Za-z0-9_-]*/g, replace: () => "[secret]" },
  { re: /[A-Za-z0-9_]{32,}/g, replace: () => "[secret]" },
  { re: /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g, replace: mask },
  { re: /\b[A-Za-z]{2}\d{2}(?:[ -]?[A-Za-z0-9]){11,30}\b/g, replace: maskIban },
  { re: /\b\d(?:[ -]?\d){12,18}\b/g, replace: mask },
  { re: /\+?\d[\d ().-]{7,}\d/g, replace: (m, fp, seen) => (m.replace(/\D/g, "").length >= 9 ? mask(m, fp, seen) : m) },
];

/** Replaces lone UTF-16 surrogates (invalid in canonical JSON) and NUL (refused by jsonb) with U+FFFD. */
export function wellFormed(s: string): string {
  // eslint-disable-next-line no-control-regex -- NUL is exactly what this replaces
  return s.replace(/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Replaces personal data and credentials inside free text. Does not truncate. */
export function scrubText(
  text: string,
  fp: Fingerprinter,
  seen: Set<string> = new Set(),
  knownPersonal?: readonly (string | null | undefined)[],
  madeFingerprints?: readonly (string | null | undefined)[],
): string {
  let out = wellFormed(text);
  // Whatever a step replaces (a fingerprint, "[secret]") or sets aside (a canonical UUID: not personal data,
  // but its digit runs look like phone or card numbers) is held out of the text until the end, so no later
  // pattern scans it again: a fingerprint's hex digits must never be taken for a phone number.
  const kept = new Map<string, string>();
  const hold = (value: string) => {
    const key = String(kept.size);
    kept.set(key, value);
    return `\u0000${key}\u0000`;
  };
  // A fingerprint made upstream (RedactionPolicy.madeFingerprints) is already the stored form: held as it is.
  if (madeFingerprints)
    for (const made of madeFingerprints) {
      if (!made || !MADE_FINGERPRINT.test(made) || !out.includes(made)) continue;
      seen.add(made);
      out = out.split(made).join(hold(made));
    }
  if (knownPersonal)
    for (const known of knownPersonal) {
      if (!known || known.trim().length < 3) continue;
      out = out.replace(new RegExp(escapeRegExp(known.trim()), "gi"), (m) => hold(mask(m, fp, seen)));
    }
  // (Long hex strings stay subject to the secret pattern: a token may look like a digest.)
  out = out.replace(IDENTIFIER, (m) => hold(m));
  for (const p of PATTERNS) out = out.replace(p.re, (m) => hold(p.replace(m, fp, seen)));
  // eslint-disable-next-line no-control-regex -- NUL delimits the placeholders set above (NUL never survives wellFormed)
  return out.replace(/\u0000(\d+)\u0000/g, (_, i: string) => kept.get(i)!);
}

/** The shape of a keyed fingerprint (fingerprintWithKey): only such strings are held as made fingerprints. */
const MADE_FINGERPRINT = /^fp:[0-9a-f]{16}$/;

/** A canonical UUID. */
const IDENTIFIER = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

export function truncateText(text: string, max = DEFAULT_MAX_TEXT): string {
  if (text.length <= max) return text;
  return `${wellFormed(text.slice(0, max))}…[truncated ${text.length - max} chars]`;
}

/** Redacts an arbitrary value (tool arguments, request details) for the audit trail. */
export function redact(value: unknown, fp: Fingerprinter, policy: RedactionPolicy = {}): Redacted {
  const seen = new Set<string>();
  const clear = new Set(policy.clear?.map((k) => k.toLowerCase()));
  const max = policy.maxTextLength ?? DEFAULT_MAX_TEXT;
  const known = policy.knownPersonal;
  const made = policy.madeFingerprints;

  const text = (s: string) => truncateText(scrubText(s, fp, seen, known, made), max);

  const fingerprintValue = (v: unknown): Json => {
    if (v === null || v === undefined) return null;
    // Numbers by String (NaN stays "NaN"); booleans and objects by JSON.
    const raw = typeof v === "string" ? v : typeof v === "number" ? String(v) : safeStringify(v);
    return mask(raw, fp, seen);
  };

  const walk = (v: unknown, depth: number): Json => {
    if (v === null || v === undefined) return null;
    if (typeof v === "string") return text(v);
    if (typeof v === "boolean") return v;
    if (typeof v === "number") {
      if (!Number.isFinite(v)) return String(v);
      // Long digit runs may be card or phone numbers written as JSON numbers.
      if (Math.abs(v) >= 1e8) {
        const s = text(String(v));
        return s === String(v) ? v : s;
      }
      return v;
    }
    if (typeof v === "bigint") return text(v.toString());
    if (depth >= MAX_DEPTH) return "[too deep]";
    if (Array.isArray(v)) {
      const items = v.slice(0, MAX_ENTRIES).map((item) => walk(item, depth + 1));
      if (v.length > MAX_ENTRIES) items.push(`[${v.length - MAX_ENTRIES} more]`);
      return items;
    }
    if (typeof v === "object") {
      const out: Record<string, Json> = {};
      const entries = Object.entries(v as Record<string, unknown>);
      for (const [rawKey, child] of entries.slice(0, MAX_ENTRIES)) {
        if (isSecretKey(rawKey)) continue; // dropped, never stored
        // Field names are caller-controlled text too.
        const key = truncateText(scrubText(rawKey, fp, seen, known), 64);
        if (clear.has(rawKey.toLowerCase())) out[key] = walk(child, depth + 1);
        else if (isPersonalKey(rawKey)) out[key] = fingerprintValue(child);
        else out[key] = walk(child, depth + 1);
      }
      if (entries.length > MAX_ENTRIES) out["[more]"] = entries.length - MAX_ENTRIES;
      return out;
    }
    return null;
  };

  const data = walk(value, 0);
  return { data, fingerprints: [...seen].sort() };
}

function safeStringify(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return "[unserializable]";
  }
}
