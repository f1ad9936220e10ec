import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  firstLine,
  playwrightFileTimes,
  readCiPhases,
  readPlaywrightReport,
  readVitestReport,
  slowestFiles,
  summariseTimings,
  timingLines,
  vitestFileTimes,
  type PlaywrightJson,
} from "./test-reports";

// A real Playwright JSON report (CI's run of 2026-12-01, trimmed to two spec files, one of which failed).
const playwright = JSON.parse(
  readFileSync(join(__dirname, "__fixtures__", "playwright-report.json"), "utf8"),
) as PlaywrightJson;

describe("npm test's failure list", () => {
  it("names each failed browser test with its file, line, project and the first line of its error", () => {
    const r = readPlaywrightReport(playwright);
    expect({ passed: r.passed, failed: r.failed }).toEqual({ passed: 8, failed: 1 });
    expect(r.failures).toEqual([
      "browser [chromium] › bulk-reject.spec.ts:12 › select three, one decided meanwhile: two rejected (each audited over its own hash), one reported — Test timeout of 150000ms exceeded.",
    ]);
  });

  it("puts describe() titles before the test's own and counts errors outside any test", () => {
    const failing = structuredClone(playwright);
    const redirect = failing.suites!.find((s) => s.title === "open-redirect.spec.ts")!;
    const test = redirect.suites![0]!.specs![0]!.tests[0]!;
    test.status = "unexpected";
    test.results[0]!.error = { message: "\u001b[31mError: expect(received).toBe(expected)\u001b[39m\n\nExpected: 1" };
    failing.errors = [{ message: "Error: Timed out waiting 180000ms from config.webServer." }];
    const r = readPlaywrightReport(failing);
    expect(r.failed).toBe(2); // the one in stats, plus the web server's error
    expect(r.failures).toContain(
      `browser [chromium] › open-redirect.spec.ts:32 › redirect after sign-in stays on this site › ${redirect.suites![0]!.specs![0]!.title} — Error: expect(received).toBe(expected)`,
    );
    expect(r.failures).toContain("browser — Error: Timed out waiting 180000ms from config.webServer.");
  });

  it("names failed vitest tests relative to the repository, and a file that failed before its tests ran", () => {
    const r = readVitestReport(
      {
        numPassedTests: 3,
        numFailedTests: 1,
        numPendingTests: 1,
        numTodoTests: 0,
        testResults: [
          {
            name: "/repo/tests/integration/a.test.ts",
            status: "failed",
            assertionResults: [
              { fullName: "a passes", status: "passed" },
              {
                fullName: "sandbox 20 refunds",
                status: "failed",
                failureMessages: [
                  "\nAssertionError: expected 19 to be 20\n    at waitFor (/repo/tests/helpers.ts:9:3)\n    at /repo/tests/integration/a.test.ts:436:70\n    at /repo/tests/integration/a.test.ts:12:1",
                ],
              },
            ],
          },
          {
            name: "/repo/lib/b.test.ts",
            status: "failed",
            message: "Failed to load url ./missing",
            assertionResults: [],
          },
          { name: "/repo/lib/c.test.ts", status: "passed", assertionResults: [{ fullName: "c", status: "passed" }] },
        ],
      },
      "vitest",
      "/repo",
    );
    expect(r).toEqual({
      passed: 3,
      failed: 2,
      skipped: 1,
      failures: [
        "vitest › tests/integration/a.test.ts:436 › sandbox 20 refunds — AssertionError: expected 19 to be 20",
        "vitest › lib/b.test.ts — Failed to load url ./missing",
      ],
    });
  });

  it("keeps one line of at most 300 characters", () => {
    expect(firstLine(`\n\n  ${"x".repeat(400)}\nmore`)).toHaveLength(300);
    expect(firstLine(undefined)).toBe("");
  });
});

describe("npm test's timings", () => {
  it("takes a vitest file's seconds from its first test's start to its last test's end, path from the repository", () => {
    const times = vitestFileTimes(
      {
        numPassedTests: 2,
        numFailedTests: 0,
        numPendingTests: 0,
        numTodoTests: 0,
        testResults: [
          { name: "/repo/tests/integration/a.test.ts", status: "passed", startTime: 1_000, endTime: 13_460 },
          { name: "/repo/lib/b.test.ts", status: "passed", startTime: 5_000, endTime: 5_049 },
          { name: "/repo/lib/c.test.ts", status: "failed" }, // failed before any test: no times, not listed
        ],
      },
      "vitest on PostgreSQL 15",
      "/repo",
    );
    expect(times).toEqual([
      { runner: "vitest on PostgreSQL 15", file: "tests/integration/a.test.ts", seconds: 12.5 },
      { runner: "vitest on PostgreSQL 15", file: "lib/b.test.ts", seconds: 0 },
    ]);
  });

  it("sums a Playwright spec file's tests (nested describe blocks and every retry included)", () => {
    const withRetry = structuredClone(playwright);
    const bulk = withRetry.suites!.find((s) => s.title === "bulk-reject.spec.ts")!;
    bulk.specs![0]!.tests[0]!.results.push({ duration: 10_000 });
    expect(playwrightFileTimes(withRetry)).toEqual([
      { runner: "browser", file: "e2e/open-redirect.spec.ts", seconds: 48.3 },
      { runner: "browser", file: "e2e/bulk-reject.spec.ts", seconds: 161.7 },
    ]);
  });

  it("lists the 15 slowest files, slowest first, across runners", () => {
    const files = Array.from({ length: 20 }, (_, i) => ({ runner: "vitest", file: `f${i}.test.ts`, seconds: i }));
    files.push({ runner: "browser", file: "e2e/x.spec.ts", seconds: 100 });
    const slowest = slowestFiles(files);
    expect(slowest).toHaveLength(15);
    expect(slowest[0]).toEqual({ runner: "browser", file: "e2e/x.spec.ts", seconds: 100 });
    expect(slowest.map((f) => f.seconds).slice(1, 4)).toEqual([19, 18, 17]);
  });

  it("reads .ci/run's phases, and nothing from a missing or broken file", () => {
    expect(readCiPhases('{"phases": [{"name": "npm ci", "seconds": 43.2},{"name": "x"}]}')).toEqual([
      { name: "npm ci", seconds: 43.2 },
    ]);
    expect(readCiPhases(undefined)).toEqual([]);
    expect(readCiPhases('{"phases": [{"name": "npm ci", "sec')).toEqual([]);
    expect(readCiPhases("[]")).toEqual([]);
  });

  it("totals .ci/run's phases and npm test's own time, and warns only past the 1,800 s budget", () => {
    const ci = [
      { name: "apt-get install postgresql", seconds: 100.25 },
      { name: "npm ci", seconds: 43 },
    ];
    const steps = [{ name: "unit and integration tests", seconds: 222 }];
    const within = summariseTimings(ci, steps, [], 1_656.7);
    expect(within.total).toBe(1_800);
    expect(within.budget).toBe(1_800);
    expect(timingLines(within).some((l) => l.startsWith("warning"))).toBe(false);
    expect(timingLines(within)).toContain("     43.0  ci: npm ci");

    const over = summariseTimings(ci, steps, [{ runner: "browser", file: "e2e/a.spec.ts", seconds: 9 }], 1_657);
    expect(over.total).toBe(1_800.3);
    const lines = timingLines(over);
    expect(lines.at(-1)).toBe(
      'warning: the run took 1800.3 s, over its budget of 1800 s: see docs/testing.md "When a step outgrows its budget"',
    );
    expect(lines).toContain("      9.0  e2e/a.spec.ts (browser)");
    expect(over.slowest).toEqual([{ runner: "browser", file: "e2e/a.spec.ts", seconds: 9 }]);
  });
});
