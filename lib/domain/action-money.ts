// The money an action moves, whatever its kind (docs/action-kinds.md, "Money"): a refund's own columns, or — for a
// kind whose effect pays money out (a cancellation's refund) — its hashed params' `money: {minor, currency}`. The
// reviewers' daily approval cap counts it (approve-proposal.ts), so no kind is a way around the cap. Knows no kind.

export type ActionMoney = { minor: number; currency: string };

/** The money of a proposal row: its amount columns when set, else `params.money`, else null (it moves no money). */
export function actionMoneyOf(p: {
  amountMinor: number | null;
  currency: string | null;
  params: unknown;
}): ActionMoney | null {
  if (p.amountMinor !== null && p.currency !== null) return { minor: p.amountMinor, currency: p.currency.trim() };
  const money = typeof p.params === "object" && p.params !== null ? (p.params as { money?: unknown }).money : null;
  if (typeof money !== "object" || money === null) return null;
  const { minor, currency } = money as { minor?: unknown; currency?: unknown };
  if (
    !Number.isSafeInteger(minor) ||
    (minor as number) < 0 ||
    typeof currency !== "string" ||
    !/^[A-Z]{3}$/.test(currency)
  )
    throw new Error("params.money must be {minor: a non-negative integer, currency: an ISO 4217 code}");
  return { minor: minor as number, currency };
}
