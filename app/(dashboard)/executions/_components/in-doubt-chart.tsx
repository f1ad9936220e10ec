"use client";

import { useFormatter, useTranslations } from "next-intl";
import type { ChartPoint } from "@/lib/schemas/execution-dto";

const W = 640;
const H = 160;
const PAD = 28;

/** In-doubt count (bars) and oldest in-doubt age (line, own scale) over the last 24 h: inline SVG, no chart library. */
export function InDoubtChart({ points }: { points: ChartPoint[] }) {
  const t = useTranslations("executions");
  const format = useFormatter();
  if (points.length === 0) return null;
  const maxCount = Math.max(1, ...points.map((p) => p.inDoubt));
  const maxAge = Math.max(60, ...points.map((p) => p.oldestAgeSeconds));
  const step = (W - 2 * PAD) / Math.max(1, points.length - 1);
  const x = (i: number) => PAD + i * step;
  const yCount = (n: number) => H - PAD - (n / maxCount) * (H - 2 * PAD);
  const yAge = (s: number) => H - PAD - (s / maxAge) * (H - 2 * PAD);
  const line = points.map((p, i) => `${i === 0 ? "M" : "L"}${x(i).toFixed(1)},${yAge(p.oldestAgeSeconds).toFixed(1)}`).join(" ");
  const last = points[points.length - 1]!;
  const summary = t("chartSummary", { count: last.inDoubt, max: maxCount, minutes: Math.round(maxAge / 60) });
  return (
    <figure style={{ margin: 0 }}>
      <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-label={summary} style={{ maxWidth: W }}>
        <line x1={PAD} y1={H - PAD} x2={W - PAD} y2={H - PAD} stroke="#9ca3af" />
        {points.map((p, i) => (
          <rect key={p.at} x={x(i) - step * 0.3} y={yCount(p.inDoubt)} width={step * 0.6} height={H - PAD - yCount(p.inDoubt)} fill="#f59e0b">
            <title>{`${format.dateTime(new Date(p.at), { timeStyle: "short" })}: ${t("chartInDoubt")} ${p.inDoubt}, ${t("chartOldest")} ${Math.round(p.oldestAgeSeconds / 60)} min`}</title>
          </rect>
        ))}
        <path d={line} fill="none" stroke="#2563eb" strokeWidth={2} />
        <text x={PAD} y={14} fontSize={11} fill="#6b7280">{`${t("chartInDoubt")} (max ${maxCount})`}</text>
        <text x={W - PAD} y={14} fontSize={11} fill="#2563eb" textAnchor="end">{`${t("chartOldest")} (max ${Math.round(maxAge / 60)} min)`}</text>
        <text x={PAD} y={H - 8} fontSize={11} fill="#6b7280">
          -24 h
        </text>
        <text x={W - PAD} y={H - 8} fontSize={11} fill="#6b7280" textAnchor="end">
          {t("chartNow")}
        </text>
      </svg>
      <figcaption className="muted">{summary}</figcaption>
    </figure>
  );
}
