/** Formats integer minor units for a locale, using the currency's own number of decimals. */
export function formatMinor(minor: number, currency: string, locale: string): string {
  const fmt = new Intl.NumberFormat(locale, { style: "currency", currency });
  const digits = fmt.resolvedOptions().maximumFractionDigits ?? 2;
  return fmt.format(minor / 10 ** digits);
}

/** Decimal places of a currency's minor unit (EUR 2, JPY 0, …). */
export function currencyExponent(currency: string): number {
  return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/**
 * Parses an amount typed by a person ("12.50", "12,5", "1234") into integer minor units without
 * floating-point arithmetic. Null when it is not a plain positive amount with at most the currency's
 * number of decimals.
 */
export function parseMajorToMinor(input: string, currency: string): number | null {
  const exp = currencyExponent(currency);
  const m = /^\s*(\d{1,12})(?:[.,](\d+))?\s*$/.exec(input);
  if (!m) return null;
  const frac = m[2] ?? "";
  if (frac.length > exp) return null;
  // Number("") is 0: no decimals (or a currency without them) adds nothing.
  const minor = Number(m[1]) * 10 ** exp + Number((frac + "0".repeat(exp)).slice(0, exp));
  return Number.isSafeInteger(minor) ? minor : null;
}
