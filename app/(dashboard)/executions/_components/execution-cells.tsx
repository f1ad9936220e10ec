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

/** A phone card's first line: the order (opening the execution) and the amount. */
export function ExecutionCardHead(r: { id: string; orderNumber: string; amountMinor: number; currency: string }) {
  return (
    <div className="flex items-start justify-between gap-3">
      <ExecutionLink id={r.id} order={r.orderNumber} className="font-semibold" />
      <span className="font-semibold">
        <Money minor={r.amountMinor} currency={r.currency} />
      </span>
    </div>
  );
}
