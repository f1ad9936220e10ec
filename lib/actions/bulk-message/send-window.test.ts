// The send window's arithmetic (./send-window.ts): inside / outside, today's or tomorrow's opening, in the window's
// own time zone (not the server's), across a DST change, and a window across midnight.
import { describe, expect, it } from "vitest";
import { inWindowHour, nextWindowOpening } from "./send-window";

const madrid = { startHour: 9, endHour: 20, timeZone: "Europe/Madrid" };

describe("nextWindowOpening", () => {
  it("null inside the window, the start hour included and the end hour excluded", () => {
    expect(nextWindowOpening(madrid, new Date("2026-12-07T08:00:00Z"))).toBeNull(); // 09:00 in Madrid (CET)
    expect(nextWindowOpening(madrid, new Date("2026-12-07T18:59:59Z"))).toBeNull(); // 19:59:59
    expect(nextWindowOpening(madrid, new Date("2026-12-07T19:00:00Z"))).not.toBeNull(); // 20:00: closed
  });

  it("before the start: today's opening in the window's zone; after the end: tomorrow's", () => {
    expect(nextWindowOpening(madrid, new Date("2026-12-07T05:30:00Z"))).toEqual(new Date("2026-12-07T08:00:00Z"));
    expect(nextWindowOpening(madrid, new Date("2026-12-07T21:00:00Z"))).toEqual(new Date("2026-12-08T08:00:00Z"));
    // 23:30 UTC is already the 8th in Madrid (00:30): that day's 09:00.
    expect(nextWindowOpening(madrid, new Date("2026-12-07T23:30:00Z"))).toEqual(new Date("2026-12-08T08:00:00Z"));
    const ny = { startHour: 9, endHour: 20, timeZone: "America/New_York" };
    expect(nextWindowOpening(ny, new Date("2026-12-07T12:00:00Z"))).toEqual(new Date("2026-12-07T14:00:00Z"));
  });

  it("across a DST change: the next day's 09:00 at its own offset", () => {
    // 24 Oct 2026 21:00 CEST (UTC+2) → 25 Oct (CET, UTC+1) 09:00 = 08:00 UTC.
    expect(nextWindowOpening(madrid, new Date("2026-10-24T19:00:00Z"))).toEqual(new Date("2026-10-25T08:00:00Z"));
  });

  it("a window across midnight, and a whole-day window", () => {
    const night = { startHour: 22, endHour: 6, timeZone: "UTC" };
    expect(inWindowHour(night, 23)).toBe(true);
    expect(inWindowHour(night, 5)).toBe(true);
    expect(inWindowHour(night, 12)).toBe(false);
    expect(nextWindowOpening(night, new Date("2026-12-07T12:00:00Z"))).toEqual(new Date("2026-12-07T22:00:00Z"));
    expect(nextWindowOpening({ startHour: 0, endHour: 0, timeZone: "UTC" }, new Date())).toBeNull();
  });
});
