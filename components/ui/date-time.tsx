"use client";

import { useFormatter, useNow, useTimeZone, useTranslations } from "next-intl";
import { cx } from "@/lib/cx";

/** Title text for any instant: the full date in the viewer's zone, the zone named, and UTC. */
export function useInstantTitle() {
  const format = useFormatter();
  const timeZone = useTimeZone() ?? "UTC";
  return (date: Date) => `${format.dateTime(date, { dateStyle: "full", timeStyle: "long" })} (${timeZone}) · ${date.toISOString().replace(".000Z", "Z")} UTC`;
}

/** A UTC instant shown in the viewer's zone; hover shows the zone and the exact UTC value. */
export function DateTime({ value, className }: { value: string | Date; className?: string }) {
  const format = useFormatter();
  const title = useInstantTitle();
  const date = typeof value === "string" ? new Date(value) : value;
  return (
    <time dateTime={date.toISOString()} title={title(date)} className={className}>
      {format.dateTime(date, { dateStyle: "medium", timeStyle: "short" })}
    </time>
  );
}

/** "just now", "2 min ago", "in 3 hours": a relative time that reads naturally, exact value on hover. */
export function RelativeTime({ value, className }: { value: string | Date; className?: string }) {
  const t = useTranslations("time");
  const format = useFormatter();
  const title = useInstantTitle();
  const now = useNow({ updateInterval: 15_000 });
  const date = typeof value === "string" ? new Date(value) : value;
  const diff = Math.abs(now.getTime() - date.getTime());
  const label = diff < 45_000 ? t("justNow") : format.relativeTime(date, { now, style: "short" });
  return (
    <time dateTime={date.toISOString()} title={title(date)} className={cx("whitespace-nowrap", className)} suppressHydrationWarning>
      {label}
    </time>
  );
}
