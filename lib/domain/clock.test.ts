import { describe, expect, it } from "vitest";
import { clockFormat, exportInstant, instantFormat, splitOffset } from "./clock";

const at = new Date("2026-12-01T10:32:05Z");

describe("one clock", () => {
  it("every shown instant carries its zone's label", () => {
    expect(new Intl.DateTimeFormat("en-US", { ...instantFormat, timeZone: "Europe/Madrid" }).format(at)).toBe(
      "Dec 1, 2026, 11:32 AM GMT+1",
    );
    expect(new Intl.DateTimeFormat("en-US", { ...instantFormat, timeZone: "America/New_York" }).format(at)).toBe(
      "Dec 1, 2026, 5:32 AM EST",
    );
    expect(new Intl.DateTimeFormat("en-US", { ...clockFormat, timeZone: "UTC" }).format(at)).toBe("10:32 AM UTC");
  });
  it("exports read the same instant in the named zone, sortable and labelled, summer time included", () => {
    expect(exportInstant(at, "Europe/Madrid")).toBe("2026-12-01 11:32:05 GMT+1");
    expect(exportInstant(new Date("2026-07-01T10:32:05Z"), "Europe/Madrid")).toBe("2026-07-01 12:32:05 GMT+2");
    expect(exportInstant(at, "America/New_York")).toBe("2026-12-01 05:32:05 GMT-5");
    expect(exportInstant(at, "UTC")).toBe("2026-12-01 10:32:05 GMT+0");
  });
});

describe("splitOffset", () => {
  it("under a minute: seconds with one decimal", () => {
    expect(splitOffset(0)).toEqual({ h: 0, min: 0, s: 0 });
    expect(splitOffset(437)).toEqual({ h: 0, min: 0, s: 0.4 });
    expect(splitOffset(59_949)).toEqual({ h: 0, min: 0, s: 59.9 });
  });
  it("from a minute on: whole minutes and seconds; hours past the hour", () => {
    expect(splitOffset(60_000)).toEqual({ h: 0, min: 1, s: 0 });
    expect(splitOffset(125_400)).toEqual({ h: 0, min: 2, s: 5 });
    expect(splitOffset(3_600_000)).toEqual({ h: 1, min: 0, s: 0 });
    expect(splitOffset(2 * 3_600_000 + 10 * 60_000 + 7_000)).toEqual({ h: 2, min: 10, s: 7 });
  });
  it("a negative offset (clock skew between instances) reads as 0", () => {
    expect(splitOffset(-250)).toEqual({ h: 0, min: 0, s: 0 });
  });
});
