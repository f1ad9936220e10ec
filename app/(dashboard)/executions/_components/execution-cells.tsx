"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";

/** Shared by the in-doubt queue and the list: table heads, and the classes of ids and errors. */
export const executionHeadClass = "h-auto py-2 align-bottom whitespace-normal";
export const mono = "font-mono text-xs break-all";

/** The order number, opening the execution's detail page. */
export function ExecutionLink({ id, order, className }: { id: string; order: string; className: string }) {
  const t = useTranslations("executions");
  return (
    <Link href={`/executions/${id}`} aria-label={t("openExecution", { order })} className={className}>
      {order}
    </Link>
  );
}
