"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { Money } from "@/components/domain/money";

/** Shared by the in-doubt queue and the list: table heads, and the classes of ids and errors. */
export const executionHeadClass = "h-auto py-2 align-bottom whitespace-normal";
export const mono = "font-mono text-xs break-all";

/** The look of a table inside a card section (the in-doubt queue, "To pay out"): no frame of its own. */
export const embeddedTableLook = {
  wrapperClassName: "rounded-none border-0 bg-transparent",
  headClassName: executionHeadClass,
  cellClassName: "py-2 whitespace-nowrap",
  cardClassName: "rounded-lg bg-transparent p-3 text-base",
} as const;

/** The order number, opening the execution's detail page. */
export function ExecutionLink({ id, order, className }: { id: string; order: string; className: string }) {
  const t = useTranslations("executions");
  return (
    <Link href={`/executions/${id}`} aria-label={t("openExecution", { order })} className={className}>
      {order}
    </Link>
  );
}

/** What an execution does, as the DTO carries it (every kind alike). */
export type ExecutionWhatRow = {
  amountMinor: number | null;
  currency: string | null;
  /** Absent where only refunds are listed (the manual payouts). */
  kind?: string;
  summary?: string | null;
};

/**
 * What the execution does: a refund's amount, or another kind's name (messages `kinds.<kind>.title`) and its one line
 * from the hashed params.
 */
export function ExecutionWhat({ r, exact = false }: { r: ExecutionWhatRow; exact?: boolean }) {
  const tk = useTranslations("kinds");
  if (r.amountMinor !== null && r.currency !== null)
    return <Money minor={r.amountMinor} currency={r.currency} exact={exact} />;
  return (
    <span data-kind={r.kind} className="grid min-w-0 gap-0.5 whitespace-normal">
      <span className="font-medium">
        {r.kind && tk.has(`${r.kind}.title`) ? tk(`${r.kind}.title`) : (r.kind ?? "—")}
      </span>
      {r.summary ? (
        <span data-summary className="text-xs font-normal text-muted-foreground">
          {r.summary}
        </span>
      ) : null}
    </span>
  );
}

/** The reference the other side gave: the payment provider's refund id, or the shop's reference for its action. */
export const referenceOf = (r: { providerRefundId: string | null; actionReference: string | null }) =>
  r.providerRefundId ?? r.actionReference;

/**
 * Whether the shop's action endpoint carries the execution out (another kind's) rather than the payment provider (a
 * refund's): it has the shop's reference, or — not answered yet — its kind presents itself by a review (a summary).
 */
export const byShop = (r: {
  providerRefundId: string | null;
  actionReference: string | null;
  summary: string | null;
}) => !!r.actionReference || (!r.providerRefundId && r.summary !== null);

/** A phone card's first line: the order (opening the execution) and what it does. */
export function ExecutionCardHead(r: { id: string; orderNumber: string } & ExecutionWhatRow) {
  return (
    <div className="flex items-start justify-between gap-3">
      <ExecutionLink id={r.id} order={r.orderNumber} className="font-semibold" />
      <span className="text-right font-semibold">
        <ExecutionWhat r={r} />
      </span>
    </div>
  );
}
