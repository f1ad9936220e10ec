// Money is integer minor units plus an ISO 4217 currency; never a float (docs/design.md "Proposal hash").

export type Money = { minor: number; currency: string };

export function isMinorUnits(value: unknown): value is number {
  return Number.isSafeInteger(value);
}

export function money(minor: number, currency: string): Money {
  if (!isMinorUnits(minor)) throw new Error(`minor units must be a safe integer, got ${String(minor)}`);
  if (!/^[A-Z]{3}$/.test(currency)) throw new Error(`currency must be an ISO 4217 code, got ${currency}`);
  return { minor, currency };
}

/** Sum of amounts that must all be in `currency`. */
export function sumMinor(amounts: readonly Money[], currency: string): number {
  let total = 0;
  for (const a of amounts) {
    if (a.currency !== currency) throw new Error(`cannot add ${a.currency} to ${currency}`);
    total += a.minor;
  }
  if (!Number.isSafeInteger(total)) throw new Error("amount overflow");
  return total;
}

/**
 * What may still be proposed for refund: captured − refunds that succeeded or are pending − proposals
 * that are still open (awaiting approval, approved, executing or being reconciled). Never negative.
 */
export function refundableMinor(input: {
  capturedMinor: number;
  refundedOrPendingMinor: number;
  openProposalsMinor: number;
}): number {
  const left = input.capturedMinor - input.refundedOrPendingMinor - input.openProposalsMinor;
  return Math.max(left, 0);
}
