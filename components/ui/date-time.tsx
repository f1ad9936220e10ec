"use client";

import { useFormatter, useNow, useTranslations } from "next-intl";
import { useClock } from "./use-clock";

/** An instant in the viewer's zone with the zone's label; hover shows the tenant's zone and UTC. */
export function DateTime({
  value,
  className,
  clockOnly = false,
}: {
  value: string | Date;
  className?: string;
  clockOnly?: boolean;
}) {
  const clock = useClock();
  const date = typeof value === "string" ? new Date(value) : value;
  return (
    <time dateTime={date.toISOString()} title={clock.title(date)} className={className} suppressHydrationWarning>
      {clockOnly ? clock.clock(date) : clock.instant(date)}
    </time>
  );
}

/**
 * "just now", "2 min ago", "in 3 hours": a relative time that reads naturally, exact value on hover. Kept on
 * one line by its default (components/ui/small-parts.css, `[data-slot="relative-time"]`), which a caller's
 * className overrides.
 */
export function RelativeTime({ value, className }: { value: string | Date; className?: string }) {
  const t = useTranslations("time");
  const format = useFormatter();
  const clock = useClock();
  const now = useNow({ updateInterval: 15_000 });
  const date = typeof value === "string" ? new Date(value) : value;
  const diff = Math.abs(now.getTime() - date.getTime());
  const label = diff < 45_000 ? t("justNow") : format.relativeTime(date, { now, style: "short" });
  return (
    <time
      dateTime={date.toISOString()}
      title={`${clock.instant(date)} · ${clock.title(date)}`}
      data-slot="relative-time"
      className={className}
      suppressHydrationWarning
    >
      {label}
    </time>
  );
}
