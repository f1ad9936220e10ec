"use client";

import { useEffect, useState } from "react";
import { useTranslations } from "next-intl";
import { useClock } from "@/components/ui/use-clock";

/** Time left until `until`, ticking every second, with the absolute time beside it (exact ISO on hover). */
export function Countdown({ until, showAbsolute = true }: { until: string; showAbsolute?: boolean }) {
  const t = useTranslations("proposal");
  const clock = useClock();
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the server renders no time; the first tick after mount keeps hydration equal
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const end = new Date(until);
  const left = now === null ? null : end.getTime() - now;
  let label = "";
  if (left !== null) {
    if (left <= 0) label = t("expiredNow");
    else {
      const s = Math.floor(left / 1000);
      const h = Math.floor(s / 3600);
      const m = Math.floor((s % 3600) / 60);
      const sec = s % 60;
      label = t("expiresIn", {
        time: h > 0 ? `${h}h ${String(m).padStart(2, "0")}m` : `${m}:${String(sec).padStart(2, "0")}`,
      });
    }
  }
  return (
    <span className={left !== null && left < 5 * 60_000 ? "countdown soon" : "countdown"}>
      {showAbsolute ? (
        <span>{label}</span>
      ) : (
        <time dateTime={end.toISOString()} data-kind="expires" title={end.toISOString()}>
          {label}
        </time>
      )}
      {showAbsolute ? (
        <>
          {" "}
          <time dateTime={end.toISOString()} data-kind="expires" title={end.toISOString()} className="muted">
            ({clock.clock(end, true)})
          </time>
        </>
      ) : null}
    </span>
  );
}
