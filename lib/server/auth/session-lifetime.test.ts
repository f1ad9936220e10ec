import { describe, expect, it } from "vitest";
import { isSessionWithinAbsoluteLifetime, SESSION_ABSOLUTE_SECONDS } from "./session-lifetime";

describe("absolute session lifetime", () => {
  const now = new Date("2026-11-30T12:00:00Z");
  const s = now.getTime() / 1000;
  it("holds up to exactly the limit from the original sign-in, not one second more", () => {
    expect(isSessionWithinAbsoluteLifetime(s - 10, now)).toBe(true);
    expect(isSessionWithinAbsoluteLifetime(s - SESSION_ABSOLUTE_SECONDS, now)).toBe(true);
    expect(isSessionWithinAbsoluteLifetime(s - SESSION_ABSOLUTE_SECONDS - 1, now)).toBe(false);
  });
  it("refuses a missing, zero or far-future authentication time", () => {
    expect(isSessionWithinAbsoluteLifetime(undefined, now)).toBe(false);
    expect(isSessionWithinAbsoluteLifetime(0, now)).toBe(false);
    expect(isSessionWithinAbsoluteLifetime(s + 3600, now)).toBe(false);
    expect(isSessionWithinAbsoluteLifetime(s + 60, now)).toBe(true);
  });
});
