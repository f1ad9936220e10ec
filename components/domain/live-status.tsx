"use client";

import { useTranslations } from "next-intl";
import { cn } from "@/lib/utils";
import { useClock } from "@/components/ui/use-clock";

/**
 * "Live" while changes are pushed, "Live · updated 10:30:51" while the page polls (the stream is down), and
 * "Not updating — retrying" as soon as a refresh fails, so nobody trusts a list that stopped moving. Not a
 * live region: a clock that ticks every few seconds is noise to a screen reader. Only the failure is
 * announced (once, when it starts); new proposals are announced by the queue itself. Its defaults:
 * components/ui/small-parts.css, `[data-slot="live-status"]` (a caller's className wins).
 */
export function LiveStatus({
  updatedAt,
  failing,
  pushed = false,
  className,
}: {
  updatedAt: number;
  failing: boolean;
  pushed?: boolean;
  className?: string;
}) {
  const t = useTranslations("live");
  const clock = useClock();
  const text = failing
    ? null
    : pushed
      ? t("pushed")
      : updatedAt
        ? t("ok", { time: clock.clock(new Date(updatedAt), true) })
        : null;
  return (
    <p data-live={failing ? "failing" : "ok"} data-pushed={pushed} data-slot="live-status" className={className}>
      <span
        aria-hidden
        className={cn("size-2 rounded-full", failing ? "animate-pulse bg-destructive" : "bg-success")}
      />
      {text}
      <span role="status">{failing ? t("failing") : null}</span>
    </p>
  );
}
