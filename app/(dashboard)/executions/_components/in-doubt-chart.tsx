"use client";

import { Bar, CartesianGrid, ComposedChart, Line, Tooltip, XAxis, YAxis } from "recharts";
import { useFormatter, useTranslations } from "next-intl";
import type { ChartPoint } from "@/lib/schemas/execution-dto";
import { useClock } from "@/components/ui/use-clock";

/**
 * In-doubt count (bars) and the oldest in-doubt age in minutes (line, own axis) over the last 24 h and now,
 * drawn with Recharts. The points come from the same response as the counters above it; the summary and a
 * data table (for screen readers and anyone who wants the figures) say the same.
 */
export function InDoubtChart({ points }: { points: ChartPoint[] }) {
  const t = useTranslations("executions");
  const format = useFormatter();
  const clock = useClock();
  if (points.length === 0) return null;
  const data = points.map((p, i) => ({
    label: i === points.length - 1 ? t("chartNow") : format.dateTime(new Date(p.at), { hour: "2-digit", minute: "2-digit", timeZone: clock.zone }),
    inDoubt: p.inDoubt,
    oldestMinutes: Math.round(p.oldestAgeSeconds / 60),
  }));
  const last = points[points.length - 1]!;
  const maxCount = Math.max(0, ...points.map((p) => p.inDoubt));
  const maxMinutes = Math.max(0, ...data.map((d) => d.oldestMinutes));
  const summary = t("chartSummary", { count: last.inDoubt, max: maxCount, minutes: maxMinutes });
  return (
    <figure className="m-0 grid gap-2">
      <div role="img" aria-label={summary} data-chart="in-doubt" className="h-56 w-full min-w-0">
        <ComposedChart responsive data={data} style={{ width: "100%", height: "100%" }} margin={{ top: 8, right: 0, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="var(--border)" />
          <XAxis dataKey="label" tick={{ fontSize: 11, fill: "var(--muted-foreground)" }} interval="preserveStartEnd" minTickGap={16} />
          <YAxis yAxisId="count" allowDecimals={false} tick={{ fontSize: 11, fill: "var(--muted-foreground)" }} width={40} />
          <YAxis yAxisId="age" orientation="right" allowDecimals={false} tick={{ fontSize: 11, fill: "var(--muted-foreground)" }} width={40} />
          <Tooltip
            contentStyle={{
              background: "var(--popover)",
              color: "var(--popover-foreground)",
              border: "1px solid var(--border)",
              borderRadius: 8,
              fontSize: 12,
            }}
          />
          <Bar yAxisId="count" dataKey="inDoubt" name={t("chartAxisCount")} fill="var(--chart-1)" radius={[3, 3, 0, 0]} isAnimationActive={false} />
          <Line
            yAxisId="age"
            dataKey="oldestMinutes"
            name={t("chartAxisAge")}
            stroke="var(--chart-2)"
            strokeWidth={2}
            dot={false}
            type="monotone"
            isAnimationActive={false}
          />
        </ComposedChart>
      </div>
      <figcaption className="text-sm text-muted-foreground">{summary}</figcaption>
      <details className="text-sm">
        <summary className="cursor-pointer text-muted-foreground">{t("chartTable")}</summary>
        <div className="mt-2 max-h-64 overflow-auto">
          <table className="w-full text-left text-xs">
            <thead>
              <tr>
                <th scope="col">{t("chartAt")}</th>
                <th scope="col">{t("chartAxisCount")}</th>
                <th scope="col">{t("chartAxisAge")}</th>
              </tr>
            </thead>
            <tbody>
              {data.map((d, i) => (
                <tr key={points[i]!.at}>
                  <td>{d.label}</td>
                  <td>{d.inDoubt}</td>
                  <td>{d.oldestMinutes}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
