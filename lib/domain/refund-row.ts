// A refund's own columns on a proposal row. `Proposal` holds every action kind (docs/action-kinds.md): the refund's
// order, customer, payment, amount and recipient columns are nullable in the schema, and a CHECK constraint keeps
// all of them on every row whose kind is "refund". Code that only ever handles refunds (the payment provider's
// execution chain, the refund's pages until the registry builds them) narrows a row with `asRefund` — which throws
// on a row that is not a refund or lacks a column, rather than treating a missing amount as 0 or a missing
// recipient as "".

const REFUND_COLUMNS = [
  "orderId",
  "customerId",
  "paymentId",
  "amountMinor",
  "currency",
  "recipientKind",
  "recipientRef",
  "recipientHolder",
  "recipientDisplay",
  "order",
  "customer",
  "payment",
] as const;
type RefundColumn = (typeof REFUND_COLUMNS)[number];

/** `T` with the refund's columns (those it selected) non-null. */
export type AsRefund<T> = { [K in keyof T]: K extends RefundColumn ? NonNullable<T[K]> : T[K] };

/** The row as a refund's: throws when its kind is not "refund" or a selected refund column is null. */
export function asRefund<T extends object>(row: T): AsRefund<T> {
  const r = row as Record<string, unknown>;
  if ("kind" in r && r.kind !== "refund") throw new Error(`a ${String(r.kind)} proposal is not a refund`);
  for (const column of REFUND_COLUMNS) {
    if (column in r && (r[column] === null || r[column] === undefined))
      throw new Error(`the refund proposal's ${column} is missing`);
  }
  return row as AsRefund<T>;
}
