"use client";

import { useFormatter, useTranslations } from "next-intl";
import { cx } from "@/lib/cx";

/**
 * "Live · updated 10:30:51" while polling works; "Not updating — retrying" as soon as a refresh fails,
 * so nobody trusts a list that stopped moving.
 */
export function LiveStatus({ updatedAt, failing, className }: { updatedAt: number; failing: boolean; className?: string }) {
  const t = useTranslations("live");
  const format = useFormatter();
  return (
    <p aria-live="polite" data-live={failing ? "failing" : "ok"} className={cx("m-0 inline-flex items-center gap-2 text-sm text-muted-foreground", className)}>
      <span aria-hidden className={cx("size-2 rounded-full", failing ? "animate-pulse bg-destructive" : "bg-success")} />
      {failing ? t("failing") : updatedAt ? t("ok", { time: format.dateTime(new Date(updatedAt), { timeStyle: "medium" }) }) : null}
    </p>
  );
}
