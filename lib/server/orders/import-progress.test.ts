import { describe, expect, it } from "vitest";
import { clock, progressLine } from "./import-progress";

const at = { read: 25_000, created: 20_000, updated: 3_000, unchanged: 1_000, refused: 1_000, totalBytes: 1000 };

describe("orders:import progress", () => {
  it("a bar on a terminal: share of the file, rate, time left at that rate, counts", () => {
    expect(progressLine({ ...at, bytes: 250, elapsedMs: 10_000, bar: true })).toBe(
      "[######..................] 25% · 25,000 lines · 2,500 lines/s · 0:30 left · 20,000 created, 3,000 updated, 1,000 unchanged, 1,000 refused",
    );
  });

  it("a plain line otherwise; nothing left at the end; no division by zero at the start", () => {
    expect(progressLine({ ...at, bytes: 1000, elapsedMs: 50_000, bar: false })).toMatch(
      /^100% · 25,000 lines · 500 lines\/s · 0:00 left/,
    );
    expect(progressLine({ ...at, read: 0, bytes: 0, elapsedMs: 0, bar: false })).toMatch(
      /^0% · 0 lines · 0 lines\/s · 0:00 left/,
    );
  });

  it("clock", () => {
    expect([clock(5), clock(62), clock(3723)]).toEqual(["0:05", "1:02", "1:02:03"]);
  });
});
