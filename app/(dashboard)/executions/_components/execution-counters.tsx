"use client";

import { useTranslations } from "next-intl";
import { executionStates } from "@/lib/domain/execution-state";
import type { ExecutionOverview } from "@/lib/schemas/execution-dto";

const card = "rounded-xl border bg-card p-3";
const big = "m-0 text-2xl font-semibold tabular-nums";

/** The counters come from the same response as the chart: "in doubt now" is the chart's last point. */
export function ExecutionCounters({ o }: { o: ExecutionOverview }) {
  const t = useTranslations("executions");
  return (
    <>
      <dl className="m-0 grid grid-cols-2 gap-3 sm:grid-cols-3" data-counters>
        <div className={card} data-counter="inDoubt">
          <dt className="text-sm text-muted-foreground">{t("counters.inDoubt")}</dt>
          <dd className={big}>{o.counters.inDoubt}</dd>
        </div>
        <div className={card} data-counter="oldest">
          <dt className="text-sm text-muted-foreground">{t("counters.oldest")}</dt>
          <dd className={big}>
            {o.counters.inDoubt
              ? t("durationMinutes", { count: Math.round(o.counters.oldestAgeSeconds / 60) })
              : t("counters.none")}
          </dd>
        </div>
        <div className={card} data-counter="total">
          <dt className="text-sm text-muted-foreground">{t("counters.total")}</dt>
          <dd className={big}>{o.counters.total}</dd>
        </div>
      </dl>
      <p className="m-0 text-xs text-muted-foreground">{t("countersHelp")}</p>
      <dl className="m-0 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {executionStates.map((s) => (
          <div key={s} className={card} data-state={s}>
            <dt className="text-sm text-muted-foreground">{t(`states.${s}`)}</dt>
            <dd className={big} aria-label={`${t(`states.${s}`)}: ${o.counts[s] ?? 0}`}>
              {o.counts[s] ?? 0}
            </dd>
          </div>
        ))}
      </dl>
    </>
  );
}
