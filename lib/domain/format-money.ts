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

/**
 * Integer minor units as the plain amount a person types back ("12.50" for 1250 EUR, "500" for 500 JPY):
 * no grouping, no symbol, a dot before the currency's decimals — so parseMoneyInput(minorToMajorInput(x)) === x.
 */
export function minorToMajorInput(minor: number, currency: string): string {
  const exp = currencyExponent(currency);
  const digits = String(Math.abs(minor)).padStart(exp + 1, "0");
  const major = exp === 0 ? digits : `${digits.slice(0, -exp)}.${digits.slice(-exp)}`;
  return minor < 0 ? `-${major}` : major;
}

/** Why a typed amount was refused: the form says which (messages `money.problems.*`). */
export type MoneyInputProblem = "format" | "currency" | "decimals" | "too_large";

/**
 * An amount typed in major units, optionally with the currency's code before or after it ("12.50",
 * "12,50 EUR", "EUR 12.50"), into integer minor units — exactly, without floating point. Refused with the
 * reason: not a plain positive amount (`format`: signs, exponents, thousands separators), another currency's
 * code (`currency`), more decimals than the currency has (`decimals`), beyond 12 major digits (`too_large`).
 */
export function parseMoneyInput(
  input: string,
  currency: string,
): { ok: true; minor: number } | { ok: false; problem: MoneyInputProblem } {
  const m = /^\s*(?:([A-Za-z]{3})\s*)?([^A-Za-z\s]*)\s*(?:([A-Za-z]{3}))?\s*$/.exec(input);
  if (!m || (m[1] && m[3])) return { ok: false, problem: "format" };
  const code = (m[1] ?? m[3])?.toUpperCase();
  if (code && code !== currency.toUpperCase()) return { ok: false, problem: "currency" };
  const amount = /^(\d+)(?:[.,](\d+))?$/.exec(m[2]!);
  if (!amount) return { ok: false, problem: "format" };
  if ((amount[2] ?? "").length > currencyExponent(currency)) return { ok: false, problem: "decimals" };
  // Leading zeros do not count toward parseMajorToMinor's 12 major digits; past those it refuses: too large.
  const minor = parseMajorToMinor(
    `${amount[1]!.replace(/^0+(?=\d)/, "")}${amount[2] === undefined ? "" : `.${amount[2]}`}`,
    currency,
  );
  return minor === null ? { ok: false, problem: "too_large" } : { ok: true, minor };
}
