import { describe, expect, it } from "vitest";
import { isAuthFresh, stepUpClock } from "./step-up";

describe("isAuthFresh", () => {
  const now = new Date("2026-11-29T12:00:00.000Z");
  const at = (msAgo: number) => Math.floor((now.getTime() - msAgo) / 1000);
  it("is fresh inside the window and stale after it", () => {
    expect(isAuthFresh(at(4 * 60_000), 5, now)).toBe(true);
    expect(isAuthFresh(at(5 * 60_000), 5, now)).toBe(true);
    expect(isAuthFresh(at(5 * 60_000 + 1000), 5, now)).toBe(false);
  });
  it("a missing authentication time is never fresh", () => {
    expect(isAuthFresh(0, 5, now)).toBe(false);
  });
});

describe("stepUpClock", () => {
  it("a recorded step-up of the session counts, else the sign-in", () => {
    expect(stepUpClock({ authTime: 100, stepUpAt: 400 })).toBe(400);
    expect(stepUpClock({ authTime: 100 })).toBe(100);
  });
});
