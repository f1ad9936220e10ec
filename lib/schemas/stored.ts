// Values the database can hold, for every inbound schema whose values reach a column (issue #34 finding 7).
// A value PostgreSQL refuses must be refused here, at its path, as `invalid_arguments` — not reach the
// database and come back as a 500:
// - `integer` columns are int4: at most 2^31-1 (JavaScript's safe integers go far beyond);
// - `text` and `jsonb` hold no NUL character, and a lone UTF-16 surrogate (valid in a JS string, not in UTF-8)
//   is either replaced silently (text) or refused (jsonb's `\ud800` escape);
// - `timestamp` is written as an ISO string: years 1–9999 in UTC (year 0000 is refused by PostgreSQL, and an
//   ISO string cannot say 10000).
import { z } from "zod";

/** The largest value of a PostgreSQL `integer` (int4) column. */
export const INT4_MAX = 2_147_483_647;

/** A whole number a PostgreSQL `integer` column holds, from `min` (default 0) to `max` (default 2^31-1). */
export const int4 = (min = 0, max = INT4_MAX) => z.number().int().min(min).max(max);

/** Money in integer minor units, as an `integer` column holds it: 0 … 2^31-1. */
export const minorUnits = int4();

/** True for a string PostgreSQL text and jsonb can hold: no NUL, no unpaired UTF-16 surrogate. */
export function isStorableText(value: string): boolean {
  // In a `u` regex a well-formed surrogate pair is one code point: only unpaired halves match \p{Cs}.
  return !value.includes("\u0000") && !/\p{Cs}/u.test(value);
}
const STORABLE_MESSAGE = "text without NUL characters or unpaired surrogates";

/** `schema` (a string schema) refusing what the database cannot store; keeps its own checks and JSON Schema. */
export const storable = <S extends z.ZodString>(schema: S): S =>
  schema.refine(isStorableText, { message: STORABLE_MESSAGE, abort: true });

/** Trimmed, non-empty text of at most `max` characters that the database can store. */
export const storedText = (max: number) => storable(z.string().trim().min(1).max(max));

/** The UTC year a PostgreSQL timestamp written from an ISO string can hold. */
export function isStorableInstant(iso: string): boolean {
  const year = new Date(iso).getUTCFullYear();
  return year >= 1 && year <= 9999;
}

/** An ISO 8601 date-time with an offset (`Z` or `±hh:mm`), in UTC within years 1–9999. */
export const storedDateTime = () =>
  z.iso.datetime({ offset: true }).refine(isStorableInstant, { message: "a date-time in the years 0001–9999 (UTC)" });
