import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { firstLine, readPlaywrightReport, readVitestReport, type PlaywrightJson } from "./test-reports";

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
