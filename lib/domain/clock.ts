// One clock for every time shown (docs/design.md "Times"): an instant is shown in the viewer's own time zone,
// always with the zone's label ("Dec 1, 2026, 11:32 AM GMT+1"); hovering it gives the tenant's zone and UTC.
// Exports (CSV) use the zone of the search they come from (the viewer's, unless the link names another),
// again labelled. These are the only format options; pages do not invent their own.

/** Date and time with the zone's label. */
export const instantFormat = {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZoneName: "short",
} as const satisfies Intl.DateTimeFormatOptions;

/** Time of day with the zone's label (for times within the day on screen: expiry, "updated at"). */
export const clockFormat = {
  hour: "numeric",
  minute: "2-digit",
  timeZoneName: "short",
} as const satisfies Intl.DateTimeFormatOptions;
export const clockSecondsFormat = { ...clockFormat, second: "2-digit" } as const satisfies Intl.DateTimeFormatOptions;

/** "2026-12-01 11:32:05 GMT+1": sortable, with its offset, for exports. */
export function exportInstant(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("sv-SE", {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
    // The offset, not a name: "CET"/"EST" are ambiguous across the world; an offset is not.
    timeZoneName: "shortOffset",
    timeZone,
  })
    .format(date)
    .replace("\u2212", "-"); // ICU writes a Unicode minus in "GMT−5": plain ASCII for spreadsheets and scripts
}

/**
 * An offset from a trace's first event, split for "+2 min 05 s": hours and minutes whole, seconds with one
 * decimal under a minute (agent calls are sub-second apart) and whole beyond it. Negative offsets (clock
 * skew between instances) read as 0.
 */
export function splitOffset(ms: number): { h: number; min: number; s: number } {
  const total = Math.max(0, ms);
  if (total < 60_000) return { h: 0, min: 0, s: Math.round(total / 100) / 10 };
  const seconds = Math.round(total / 1000);
  return { h: Math.floor(seconds / 3600), min: Math.floor((seconds % 3600) / 60), s: seconds % 60 };
}
