import { describe, expect, it } from "vitest";
import { canonicalTimeZone, instantOfWallClock, isWallClock, wallClockOf } from "./local-time";

const at = (text: string, zone: string, pick?: "earliest" | "latest") =>
  instantOfWallClock(text, zone, pick)?.toISOString() ?? null;

describe("wall-clock times in a time zone", () => {
  it("reads ordinary times with the zone's offset of that day", () => {
    expect(at("2026-07-01T12:00", "Europe/Madrid")).toBe("2026-07-01T10:00:00.000Z");
    expect(at("2026-01-15T12:00", "Europe/Madrid")).toBe("2026-01-15T11:00:00.000Z");
    expect(at("2026-01-15T12:00:30", "America/New_York")).toBe("2026-01-15T17:00:30.000Z");
    expect(at("2026-01-15T12:00", "UTC")).toBe("2026-01-15T12:00:00.000Z");
  });

  it("moves a skipped time forward (spring-forward gap)", () => {
    expect(at("2026-03-29T02:30", "Europe/Madrid")).toBe("2026-03-29T01:30:00.000Z"); // = 03:30 CEST
    expect(at("2026-03-08T02:30", "America/New_York")).toBe("2026-03-08T07:30:00.000Z"); // = 03:30 EDT
  });

  it("picks the first or the second instant of a repeated time (fall-back overlap)", () => {
    expect(at("2026-10-25T02:30", "Europe/Madrid", "earliest")).toBe("2026-10-25T00:30:00.000Z");
    expect(at("2026-10-25T02:30", "Europe/Madrid", "latest")).toBe("2026-10-25T01:30:00.000Z");
    expect(at("2026-11-01T01:30", "America/New_York", "earliest")).toBe("2026-11-01T05:30:00.000Z");
    expect(at("2026-11-01T01:30", "America/New_York", "latest")).toBe("2026-11-01T06:30:00.000Z");
    // Half-hour change (Lord Howe): still both instants.
    expect(at("2026-04-05T01:45", "Australia/Lord_Howe", "earliest")).toBe("2026-04-04T14:45:00.000Z");
    expect(at("2026-04-05T01:45", "Australia/Lord_Howe", "latest")).toBe("2026-04-04T15:15:00.000Z");
  });

  it("refuses what is not a wall-clock time or does not exist", () => {
    for (const bad of [
      "2026-02-30T01:00",
      "2026-13-01T00:00",
      "2026-01-01T24:00",
      "2026-01-01",
      "2026-01-01T00:00Z",
      "yesterday",
    ])
      expect(at(bad, "Europe/Madrid"), bad).toBeNull();
    expect(isWallClock("2026-01-01T00:00")).toBe(true);
    expect(isWallClock("2026-01-01T00:00:00+01:00")).toBe(false);
  });

  it("formats an instant back as the zone's wall clock (round trip)", () => {
    expect(wallClockOf(new Date("2026-10-25T00:30:00Z"), "Europe/Madrid")).toBe("2026-10-25T02:30");
    expect(wallClockOf(new Date("2026-10-25T01:30:00Z"), "Europe/Madrid")).toBe("2026-10-25T02:30");
    expect(wallClockOf(instantOfWallClock("2026-06-01T08:05", "Asia/Kolkata")!, "Asia/Kolkata")).toBe(
      "2026-06-01T08:05",
    );
  });

  it("knows IANA zones only", () => {
    expect(canonicalTimeZone("Europe/Madrid")).toBe("Europe/Madrid");
    expect(canonicalTimeZone("UTC")).toBe("UTC");
    for (const bad of ["+01:00", "Mars/Olympus_Mons", "", "Europe/Madrid; x", "CET123"])
      expect(canonicalTimeZone(bad), bad).toBeNull();
  });
});
