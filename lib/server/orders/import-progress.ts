import "server-only";

export type ImportProgress = {
  read: number;
  created: number;
  updated: number;
  unchanged: number;
  refused: number;
  bytes: number;
  totalBytes: number;
  elapsedMs: number;
  /** A bar (a terminal) or a plain line (a log). */
  bar: boolean;
};

const BAR = 24;

/** `0:05`, `1:02:03`. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const [h, m, r] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const two = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${two(m)}:${two(r)}` : `${m}:${two(r)}`;
}

/**
 * `orders:import`'s progress: how far through the file (by bytes read), lines per second so far and the time
 * left at that rate, then the counts. On a terminal with a bar in front, redrawn in place by the script.
 */
export function progressLine(p: ImportProgress): string {
  const done = p.totalBytes > 0 ? Math.min(1, p.bytes / p.totalBytes) : 1;
  const seconds = p.elapsedMs / 1000;
  const rate = seconds > 0 ? p.read / seconds : 0;
  const left = done > 0 && done < 1 ? (seconds * (1 - done)) / done : 0;
  const filled = Math.round(done * BAR);
  const bar = p.bar ? `[${"#".repeat(filled)}${".".repeat(BAR - filled)}] ` : "";
  const n = (v: number) => Math.round(v).toLocaleString("en");
  return (
    `${bar}${Math.round(done * 100)}% · ${n(p.read)} lines · ${n(rate)} lines/s · ${clock(left)} left · ` +
    `${n(p.created)} created, ${n(p.updated)} updated, ${n(p.unchanged)} unchanged, ${n(p.refused)} refused`
  );
}
