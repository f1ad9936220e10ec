// The bulk message's send window (docs/action-kinds.md "The bulk message", "The send window"): hours of the day in a
// time zone — hashed in the proposal's params — within which batches may be POSTed. Pure: no I/O, the clock is passed.
// [startHour, endHour) in local time; startHour > endHour is a window across midnight (22–06); equal hours are the
// whole day.

export type SendWindow = { startHour: number; endHour: number; timeZone: string };

const partsFormat = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = partsFormat.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    partsFormat.set(timeZone, f);
  }
  return f;
}

/** The wall-clock fields of `at` in `timeZone`. */
function localOf(at: Date, timeZone: string) {
  const p = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  );
  return { y: +p.year!, m: +p.month!, d: +p.day!, h: +p.hour!, min: +p.minute!, s: +p.second! };
}

/** The instant the wall clock of `timeZone` reads y-m-d h:00 (the offset found by two corrections; DST-safe at h:00
 * outside the small hours in which clocks change). */
function instantOf(y: number, m: number, d: number, h: number, timeZone: string): Date {
  const wall = Date.UTC(y, m - 1, d, h);
  let guess = wall;
  for (let i = 0; i < 3; i++) {
    const l = localOf(new Date(guess), timeZone);
    const seen = Date.UTC(l.y, l.m - 1, l.d, l.h, l.min, l.s);
    guess += wall - seen;
  }
  return new Date(guess);
}

/** Whether local hour `h` lies in the window. */
export function inWindowHour(w: SendWindow, h: number): boolean {
  if (w.startHour === w.endHour) return true;
  return w.startHour < w.endHour ? h >= w.startHour && h < w.endHour : h >= w.startHour || h < w.endHour;
}

/**
 * Null when `now` is inside the window (a batch may start); otherwise the instant the window next opens: today's
 * start when it has not come yet, else tomorrow's (in the window's time zone).
 */
export function nextWindowOpening(w: SendWindow, now: Date): Date | null {
  const l = localOf(now, w.timeZone);
  if (inWindowHour(w, l.h)) return null;
  const today = instantOf(l.y, l.m, l.d, w.startHour, w.timeZone);
  if (today.getTime() > now.getTime()) return today;
  // Tomorrow's date in that zone: the local noon of today plus a day, read back (never off by a DST hour).
  const tomorrow = localOf(new Date(instantOf(l.y, l.m, l.d, 12, w.timeZone).getTime() + 86_400_000), w.timeZone);
  return instantOf(tomorrow.y, tomorrow.m, tomorrow.d, w.startHour, w.timeZone);
}
