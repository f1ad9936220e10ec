// Wall-clock times typed by a viewer (a datetime-local field: "2026-03-29T02:30") and the instants they
// stand for in the viewer's IANA time zone. The zone arithmetic is @date-fns/tz's (the platform's tz
// database through Intl), so DST gaps and overlaps follow the zone's real rules — no offset math here.
import { TZDate } from "@date-fns/tz";

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

let zones: Set<string> | null = null;
function zoneList(): Set<string> {
  zones ??= new Set([...Intl.supportedValuesOf("timeZone"), "UTC"]);
  return zones;
}

/** The zone's canonical IANA name when `value` is a zone Intl knows (aliases such as "Asia/Calcutta" are
 *  resolved); null for anything else, offsets ("+01:00") included. */
export function canonicalTimeZone(value: string): string | null {
  if (zoneList().has(value)) return value;
  try {
    const resolved = new Intl.DateTimeFormat("en-US", { timeZone: value }).resolvedOptions().timeZone;
    return zoneList().has(resolved) ? resolved : null;
  } catch {
    return null;
  }
}

export const isWallClock = (value: string): boolean => WALL_CLOCK.test(value);

/** "YYYY-MM-DDTHH:mm" of an instant in `timeZone` (what a datetime-local field shows). */
export function wallClockOf(instant: Date, timeZone: string): string {
  const d = new TZDate(instant.getTime(), timeZone);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/**
 * The instant a wall-clock time stands for in `timeZone`, or null when the text is not a wall-clock time.
 * A time the zone skips (spring-forward gap) is moved forward by the gap, as clocks do. A time the zone
 * shows twice (fall-back overlap) has two instants: `earliest` picks the first (for a range's start),
 * `latest` the second (for a range's end), so a range never leaves out what the viewer saw in it.
 */
export function instantOfWallClock(
  text: string,
  timeZone: string,
  pick: "earliest" | "latest" = "latest",
): Date | null {
  const m = WALL_CLOCK.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((x) => Number(x ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  const base = new TZDate(year, month - 1, day, hour, minute, second, timeZone);
  if (Number.isNaN(base.getTime()) || base.getDate() !== day || base.getMonth() !== month - 1) return null;
  // Around an offset change the same wall-clock time may also be one change earlier or later.
  const offsetAt = (t: number) => new TZDate(t, timeZone).getTimezoneOffset();
  const shift = Math.abs(offsetAt(base.getTime() - 86_400_000) - offsetAt(base.getTime() + 86_400_000)) * 60_000;
  const wanted = `${text.slice(0, 16)}:${String(second).padStart(2, "0")}`;
  const shows = (t: number) =>
    `${wallClockOf(new Date(t), timeZone)}:${String(new TZDate(t, timeZone).getSeconds()).padStart(2, "0")}` === wanted;
  const candidates = [base.getTime() - shift, base.getTime(), base.getTime() + shift].filter(shows);
  if (candidates.length === 0) return new Date(base.getTime()); // in a gap: TZDate moved it forward
  return new Date(pick === "earliest" ? Math.min(...candidates) : Math.max(...candidates));
}
