"use client";

import { useFormatter, useTranslations } from "next-intl";
import type { ChartPoint } from "@/lib/schemas/execution-dto";
import { useClock } from "@/components/ui/use-clock";

/** The plot's own coordinate space; the SVG stretches it to the box (bars and lines only, no text inside). */
const W = 1000;
const H = 200;
const axisText = "text-[11px] leading-none text-muted-foreground tabular-nums";

/**
 * In-doubt count (bars) and the oldest in-doubt age in minutes (line, own axis on the right) over the last 24 h
 * and now, drawn as plain SVG: no chart library (Recharts cost this page 122 KiB gzip of JavaScript, bench:ui).
 * It stays a client component because it shares the live overview response with the counters above it (they
 * say "the same numbers as the chart's now"): a server-drawn chart would freeze while they move.
 * The figure is one image for assistive technology (role="img", the summary as its name); each bar's <title>
 * is its tooltip; the data table below says every figure.
 */
export function InDoubtChart({ points }: { points: ChartPoint[] }) {
  const t = useTranslations("executions");
  const format = useFormatter();
  const clock = useClock();
  if (points.length === 0) return null;
  const data = points.map((p, i) => ({
    at: p.at,
    label:
      i === points.length - 1
        ? t("chartNow")
        : format.dateTime(new Date(p.at), { hour: "2-digit", minute: "2-digit", timeZone: clock.zone }),
    inDoubt: p.inDoubt,
    oldestMinutes: Math.round(p.oldestAgeSeconds / 60),
  }));
  const last = points[points.length - 1]!;
  const maxCount = Math.max(0, ...points.map((p) => p.inDoubt));
  const maxMinutes = Math.max(0, ...data.map((d) => d.oldestMinutes));
  const summary = t("chartSummary", { count: last.inDoubt, max: maxCount, minutes: maxMinutes });
  // Scales: at least 1 so an all-zero day draws a flat chart instead of dividing by zero.
  const countTop = Math.max(1, maxCount);
  const minutesTop = Math.max(1, maxMinutes);
  const slot = W / data.length;
  const barWidth = slot * 0.7;
  const y = (v: number, top: number) => H - (v / top) * H;
  const line = data
    .map((d, i) => `${(i * slot + slot / 2).toFixed(1)},${y(d.oldestMinutes, minutesTop).toFixed(1)}`)
    .join(" ");
  // A handful of x labels: the first, every fourth, and "now" (the last).
  const ticks = data
    .map((d, i) => ({ ...d, i }))
    .filter((d) => d.i === 0 || d.i === data.length - 1 || (d.i % 4 === 0 && d.i < data.length - 2));
  return (
    <figure className="m-0 grid gap-2">
      <div
        role="img"
        aria-label={summary}
        data-chart="in-doubt"
        className="grid w-full min-w-0 grid-cols-[2.5rem_1fr_2.5rem] gap-x-1"
      >
        <div className={`flex h-48 flex-col justify-between text-right ${axisText}`} aria-hidden="true">
          <span>{countTop}</span>
          <span>{Math.round(countTop / 2) === countTop / 2 ? countTop / 2 : ""}</span>
          <span>0</span>
        </div>
        <svg
          viewBox={`0 0 ${W} ${H}`}
          preserveAspectRatio="none"
          className="block h-48 w-full overflow-visible"
          focusable="false"
        >
          {[0, 0.5, 1].map((f) => (
            <line
              key={f}
              x1={0}
              x2={W}
              y1={H * f}
              y2={H * f}
              strokeDasharray="3 3"
              vectorEffect="non-scaling-stroke"
              style={{ stroke: "var(--border)" }}
            />
          ))}
          {data.map((d, i) => {
            const h = (d.inDoubt / countTop) * H;
            return (
              <g key={d.at} data-bar={d.inDoubt}>
                <title>{`${d.label}: ${t("chartAxisCount")} ${d.inDoubt}, ${t("chartAxisAge")} ${d.oldestMinutes}`}</title>
                {/* A full-height transparent slot, so the tooltip shows anywhere above the bar too. */}
                <rect x={i * slot} y={0} width={slot} height={H} fill="transparent" />
                {h > 0 ? (
                  <rect
                    x={i * slot + (slot - barWidth) / 2}
                    y={H - h}
                    width={barWidth}
                    height={h}
                    rx={3}
                    style={{ fill: "var(--chart-1)" }}
                  />
                ) : null}
              </g>
            );
          })}
          <polyline
            points={line}
            fill="none"
            strokeWidth={2}
            vectorEffect="non-scaling-stroke"
            style={{ stroke: "var(--chart-2)" }}
            pointerEvents="none"
          />
        </svg>
        <div className={`flex h-48 flex-col justify-between ${axisText}`} aria-hidden="true">
          <span>{minutesTop}</span>
          <span />
          <span>0</span>
        </div>
        <div className={`relative col-start-2 mt-1 h-4 ${axisText}`} aria-hidden="true">
          {ticks.map((d) => (
            <span
              key={d.at}
              // On a phone only the first and "now": the others would run into each other.
              className={`absolute top-0 -translate-x-1/2 whitespace-nowrap first:translate-x-0 last:-translate-x-full ${d.i === 0 || d.i === data.length - 1 ? "" : "hidden sm:block"}`}
              style={{ left: `${((d.i * slot + slot / 2) / W) * 100}%` }}
            >
              {d.label}
            </span>
          ))}
        </div>
      </div>
      <p className="m-0 flex flex-wrap gap-x-4 text-xs text-muted-foreground" aria-hidden="true">
        <span>
          <span
            className="mr-1 inline-block size-2.5 rounded-sm align-middle"
            style={{ background: "var(--chart-1)" }}
          />
          {t("chartAxisCount")}
        </span>
        <span>
          <span className="mr-1 inline-block h-0.5 w-3 align-middle" style={{ background: "var(--chart-2)" }} />
          {t("chartAxisAge")}
        </span>
      </p>
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
              {data.map((d) => (
                <tr key={d.at}>
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
